import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { writeDataDirConfig } from '../../src/core/datadir.js';
import { packageVersion } from '../../src/core/version.js';
import { ENGINE } from '../db.js';
import { cleanup, lims, tempDir } from './helpers.js';

afterAll(cleanup);

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return Object.assign(w, { text: () => chunks.join('') });
}

/** Runs the CLI in this process (commander's exitOverride makes that possible) and captures its output. */
async function inProcess(...args: string[]) {
  const stdout = sink();
  const stderr = sink();
  const code = await runCli(['node', 'lims', ...args], { stdout, stderr });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const COMMANDS = [
  [],
  ['setup'],
  ['serve'],
  ['user'],
  ['user', 'add'],
  ['user', 'list'],
  ['user', 'reset-password'],
  ['user', 'deactivate'],
  ['user', 'activate'],
  ['audit'],
  ['audit', 'verify'],
];

describe('lims: help, version, usage errors', () => {
  it.each(COMMANDS.map((c) => [c.join(' ') || '(none)', c] as const))('--help works for %s', async (_name, cmd) => {
    const r = await inProcess(...cmd, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Usage: lims${cmd.length ? ` ${cmd.join(' ')}` : ''}`);
    expect(r.stderr).toBe('');
  });

  it('prints the package version', async () => {
    const r = await inProcess('--version');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(packageVersion());
  });

  it('an unknown command is a usage error (exit 2) with a suggestion', async () => {
    const r = await inProcess('usr', 'list');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("lims: unknown command 'usr' (did you mean user?)\n");
  });

  it('a missing argument is a usage error naming it', async () => {
    const r = await inProcess('user', 'deactivate');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("lims: missing required argument 'email'\n");
  });

  it('no command at all shows the help on stderr and exits 2', async () => {
    const r = await inProcess();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: lims');
  });
});

describe('the real binary', () => {
  it('answers --help and --version with exit code 0', async () => {
    const [help, version] = await Promise.all([lims(['--help']), lims(['--version'])]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'Exit codes: 0 done, 1 the command failed, 2 the command line was wrong, 130 stopped with Ctrl+C.',
    );
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(packageVersion());
  });

  it('reports a broken database in one line, and with --verbose adds the stack trace', async () => {
    const dir = tempDir();
    let expected: RegExp;
    if (ENGINE === 'sqlite') {
      writeFileSync(join(dir, 'lims.db'), 'this is not a database, just text that fills a page '.repeat(100));
      expected = /^lims: cannot open the database .*lims\.db: file is not a database\n$/;
    } else {
      // PostgreSQL's counterpart of an unreadable file: the data dir names a database that is not there.
      const url = new URL(inject('pgAdminUrl'));
      const name = `lims_missing_${process.pid}`;
      url.pathname = `/${name}`;
      writeDataDirConfig(dir, { database_url: url.href });
      expected = new RegExp(
        `^lims: cannot open PostgreSQL \\S+/${name}: the database "${name}" does not exist on \\S+: create it first \\(createdb [^\\n]*${name}\\)\\n$`,
      );
    }
    const plain = await lims(['--data-dir', dir, 'audit', 'verify']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(expected);

    const verbose = await lims(['--data-dir', dir, '--verbose', 'audit', 'verify']);
    expect(verbose.code).toBe(1);
    expect(verbose.stderr.split('\n')[0]).toBe(plain.stderr.trimEnd());
    expect(verbose.stderr).toMatch(/\n\s+at /);
  });
});
