import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../db.js';
import { BIN, cleanup, lims, openLabDatabase, setUpLab, tempDir } from './helpers.js';

// One process owns a data dir: a running lims serve keeps a second server, restore, db copy and
// import off it, with one line naming itself; the lock dies with the process (kill -9 included).

let dir: string;
let backup: string;
beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir);
  backup = join(tempDir(), ENGINE === 'sqlite' ? 'b.db' : 'b.dump');
  if (ENGINE === 'sqlite') {
    const b = await lims(['--data-dir', dir, 'backup', '--out', backup]);
    if (b.code !== 0) throw new Error(b.stderr);
  } else {
    // The lock is checked before the file is read: any file stands for a backup here.
    writeFileSync(backup, 'PGDMP');
  }
});

const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(cleanup);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

interface Serve {
  child: ChildProcess;
  /** 'running' once it printed its start-up lines, else its exit code. */
  outcome: Promise<'running' | number | null>;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** Spawns `lims serve` on dir; settles when it is running or has exited, whichever comes first. */
function serve(): Promise<Serve> {
  return freePort().then((port) => {
    const child = spawn(process.execPath, [BIN, '--data-dir', dir, 'serve', '--port', String(port), '--quiet'], {
      env: { ...process.env, HOME: tempDir('lims-home-') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const outcome = new Promise<'running' | number | null>((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Press Ctrl+C to stop.')) resolve('running');
      });
      void exited.then(resolve);
    });
    return { child, outcome, exited, stderr: () => err };
  });
}

async function running(): Promise<Serve> {
  const s = await serve();
  const o = await s.outcome;
  if (o !== 'running') throw new Error(`lims serve did not start (${String(o)}): ${s.stderr()}`);
  return s;
}

/** The one line a refused command prints, naming the server by its pid. */
function refusal(pid: number): RegExp {
  return new RegExp(
    `^lims: the data dir ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by lims serve \\(pid ${pid}, since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\); stop it first, or wait until it has finished\\n$`,
  );
}

describe('one process owns a data dir', () => {
  it('a second lims serve exits 1 naming the first, and leaves its serve.pid; restore still refuses', async () => {
    const first = await running();
    const pid = first.child.pid!;
    expect(readFileSync(join(dir, 'serve.pid'), 'utf8')).toBe(`${pid}\n`);

    const second = await serve();
    const outcome = await second.outcome;
    // The code as it was let the second start; stopping it then removed the first one's serve.pid.
    if (outcome === 'running') second.child.kill('SIGTERM');
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(refusal(pid));
    expect(readFileSync(join(dir, 'serve.pid'), 'utf8')).toBe(`${pid}\n`);

    const r = await lims(['--data-dir', dir, 'restore', backup]);
    expect(r.stderr).toMatch(refusal(pid));
    expect(r.code).toBe(1);
    expect(readdirSync(dir).some((f) => f.startsWith('lims.db.before-restore-'))).toBe(false);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // A clean stop takes its own files with it.
    expect(existsSync(join(dir, 'serve.pid'))).toBe(false);
    expect(existsSync(join(dir, 'lims.lock.json'))).toBe(false);
  });

  it('lims db copy and lims import refuse while the server runs, and store nothing', async () => {
    const first = await running();
    const pid = first.child.pid!;

    const copyTo = join(tempDir(), 'copy.db');
    const copy = await lims(['--data-dir', dir, 'db', 'copy', '--to', `sqlite:${copyTo}`]);
    expect(copy.stderr).toMatch(refusal(pid));
    expect(copy.code).toBe(1);
    expect(existsSync(copyTo)).toBe(false);

    const csv = join(tempDir(), 'patients.csv');
    writeFileSync(csv, 'first_name,date_of_birth\nLockcheck,1990-01-01\n');
    const imp = await lims(['--data-dir', dir, 'import', 'patients', csv]);
    expect(imp.stderr).toMatch(refusal(pid));
    expect(imp.code).toBe(1);
    // A dry run only reads: it may run beside the server.
    const dry = await lims(['--data-dir', dir, 'import', 'patients', csv, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const database = await openLabDatabase(dir);
    try {
      const rows = await database.db
        .selectFrom('patients')
        .select('id')
        .where('first_name', '=', 'Lockcheck')
        .execute();
      expect(rows).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('after lims serve is killed with SIGKILL the lock is gone: a new server starts and holds it', async () => {
    const first = await running();
    first.child.kill('SIGKILL');
    await first.exited;
    // Its serve.pid and lims.lock.json are left behind: neither is the lock.
    expect(existsSync(join(dir, 'lims.lock.json'))).toBe(true);

    const next = await running();
    const third = await serve();
    const outcome = await third.outcome;
    if (outcome === 'running') third.child.kill('SIGTERM');
    expect(await third.exited).toBe(1);
    expect(third.stderr()).toMatch(refusal(next.child.pid!));
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });
});
