import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanup, lims, provisionDir, setUpLab, tempDir } from './helpers.js';

/** One set-up lab for the tests that need one (serving it and refusing --demo on it). */
let labDir: string;
beforeAll(async () => {
  labDir = tempDir();
  await setUpLab(labDir);
});
afterAll(cleanup);

/** A port nobody listens on right now: the OS picks it, we release it and hand it to lims. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Spawns `lims serve` and resolves once it has printed all its start-up lines. */
function startServe(args: string[]): Promise<Started & { url: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, HOME: tempDir('lims-home-') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}${err}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /lims is running at (\S+)[^]*Press Ctrl\+C to stop\./.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => out, stderr: () => err, exited });
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
}

describe('lims serve', () => {
  it('serves /api/health and shuts down cleanly on SIGTERM with exit code 0', async () => {
    const dir = labDir;
    const port = await freePort();
    const s = await startServe(['--data-dir', dir, 'serve', '--port', String(port), '--quiet']);
    try {
      expect(s.url).toBe(`http://127.0.0.1:${port}`);
      const res = await fetch(`${s.url}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ok', setup_complete: true, database: { status: 'ok' } });
      expect(s.stdout()).not.toContain('setup-wizard');
      // The lab's backup schedule (lims setup's defaults: daily, kept 30 days), said at start.
      expect(s.stdout()).toContain(
        `Automatic backups: every day while the server runs, into ${join(dir, 'backups')}, each kept 30 days (System Settings, Database).`,
      );
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
  });

  it('on an empty data dir points to the web setup wizard', async () => {
    const dir = tempDir();
    // Spawned without lims(): on PostgreSQL give the dir its (empty) database here.
    await provisionDir(dir);
    const port = await freePort();
    const s = await startServe(['serve', '--data-dir', dir, '--port', String(port), '--quiet']);
    try {
      expect(s.stdout()).toContain(`open http://127.0.0.1:${port}/setup-wizard`);
      expect(s.stdout()).not.toContain('Automatic backups');
      const health = (await (await fetch(`${s.url}/api/health`)).json()) as { setup_complete: boolean };
      expect(health.setup_complete).toBe(false);
    } finally {
      s.child.kill('SIGINT');
    }
    expect(await s.exited).toBe(0);
  });

  it('fails with one line and exit code 1 when the port is taken', async () => {
    const blocker: Server = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)),
    );
    try {
      const r = await lims(['--data-dir', tempDir(), 'serve', '--port', String(port), '--quiet']);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `lims: port ${port} on 127.0.0.1 is already in use; stop the program using it or choose another with --port\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('rejects a port outside 1-65535 with exit code 2, naming flag and value', async () => {
    const r = await lims(['--data-dir', tempDir(), 'serve', '--port', '70000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "'-p, --port <port>' argument '70000' is invalid. The port must be a whole number from 1 to 65535.",
    );
  });

  it('takes the upload limits in whole MB, the quota not below the limit', async () => {
    const big = await lims(['--data-dir', tempDir(), 'serve', '--upload-limit', '2048']);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain(
      "'--upload-limit <MB>' argument '2048' is invalid. A size in whole megabytes from 1 to 1024.",
    );
    const below = await lims(['--data-dir', tempDir(), 'serve', '--upload-limit', '300', '--upload-quota', '100']);
    expect(below.code).toBe(2);
    expect(below.stderr).toBe(
      'lims: --upload-quota (100 MB) is below --upload-limit (300 MB): a file of the limit could never be uploaded\n',
    );
  });

  it('logs readable lines with --log-format pretty and JSON lines when stdout is a pipe', async () => {
    const requestLine = async (format: string[]) => {
      const s = await startServe([
        '--data-dir',
        labDir,
        'serve',
        '--port',
        String(await freePort()),
        '--log-requests',
        ...format,
      ]);
      try {
        expect((await fetch(`${s.url}/api/health?q=Meena`)).status).toBe(200);
        await expect.poll(() => s.stdout(), { timeout: 10_000 }).toMatch(/request completed/);
      } finally {
        s.child.kill('SIGTERM');
      }
      await s.exited;
      return s
        .stdout()
        .split('\n')
        .find((l) => l.includes('request completed'))!;
    };
    const pretty = await requestLine(['--log-format', 'pretty']);
    expect(pretty).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO {2}request completed GET \/api\/health 200 [\d.]+ ms reqId=\S+$/,
    );
    // Piped (as here) without the flag: one JSON object per line, for a log collector.
    const json = JSON.parse(await requestLine([])) as Record<string, unknown>;
    expect(json).toMatchObject({ level: 30, msg: 'request completed', res: { statusCode: 200 } });
    // Neither shows the query string (searches carry patient names).
    expect(pretty + JSON.stringify(json)).not.toContain('Meena');
  });

  it('rejects an unknown --log-format with exit code 2, naming flag and value', async () => {
    const r = await lims(['--data-dir', tempDir(), 'serve', '--log-format', 'xml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'--log-format <format>' argument 'xml' is invalid. Allowed choices are json, pretty.");
  });

  it('refuses --demo on a data dir that holds a real lab', async () => {
    const dir = labDir;
    const r = await lims(['--data-dir', dir, 'serve', '--demo', '--port', String(await freePort()), '--quiet']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--demo runs only on an empty or demo data dir');
  });
});
