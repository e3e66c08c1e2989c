import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/core/auth/password.js';
import { row } from '../db.js';
import { BIN, cleanup, openLabDatabase, provisionDir, tempDir } from './helpers.js';

afterAll(cleanup);

// util-linux `script` gives the CLI a real pseudo-terminal, so the prompts run as a person sees them.
const hasScript = spawnSync('script', ['--version']).status === 0;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Each step waits for a prompt's text to appear after the previous answer, then types the answer. */
type Step = [prompt: string, keys: string];

function drive(args: string[], steps: Step[]): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env: { ...process.env, HOME: tempDir('lims-home-'), TERM: 'xterm', COLUMNS: '120', LINES: '40' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let seen = 0;
  let next = 0;
  const pump = () => {
    // Several prompts can arrive in one chunk; answer each that is on screen, in order.
    for (let step = steps[next]; step; step = steps[next]) {
      const at = screen.indexOf(step[0], seen);
      if (at === -1) return;
      seen = at + step[0].length;
      next += 1;
      if (step[1]) child.stdin.write(step[1]);
    }
  };
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    pump();
  });
  child.stderr.on('data', (d: Buffer) => (screen += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

describe.skipIf(!hasScript)('lims setup, interactive', () => {
  it('asks every question, re-asks a mismatched password, and sets the lab up after confirmation', async () => {
    const dir = tempDir();
    // Spawned without lims(): on PostgreSQL give the dir its database here.
    await provisionDir(dir);
    const { code, screen } = await drive(
      ['--data-dir', dir, 'setup'],
      [
        ['Lab name', 'Sunrise Diagnostics\r'],
        ['Lab address', '14 Park Street, Kolkata\r'],
        ['Lab phone', '+91 33 4000 1234\r'],
        ['Lab email', '\r'],
        ['Administrator name', '\x15Priya Sen\r'],
        ['Administrator email', 'priya@sunrise.in\r'],
        ['Administrator password', 'first-secret-1\r'],
        ['Confirm the password', 'other-secret-2\r'],
        ['do not match', ''],
        ['Administrator password', 'right-secret-1\r'],
        ['Confirm the password', 'right-secret-1\r'],
        ['Timezone', '\r'],
        ['Currency', '\r'],
        ['Date format', '\r'],
        ['Load the starter catalogue', 'n\r'],
        ['Create the lab now?', 'y\r'],
        ['is set up', ''],
      ],
    );
    expect(screen).toContain('Lab "Sunrise Diagnostics" is set up.');
    expect(code).toBe(0);

    const database = await openLabDatabase(dir);
    let org: unknown;
    let admin: { password_hash: string } | undefined;
    try {
      org = await row(database, 'SELECT name, address, phone, email, timezone FROM organizations');
      admin = await row<{ password_hash: string }>(
        database,
        'SELECT email, first_name, last_name, role, password_hash FROM users',
      );
    } finally {
      await database.close();
    }
    expect(org).toEqual({
      name: 'Sunrise Diagnostics',
      address: '14 Park Street, Kolkata',
      phone: '+91 33 4000 1234',
      email: null,
      timezone: 'Asia/Kolkata',
    });
    expect(admin).toMatchObject({
      email: 'priya@sunrise.in',
      first_name: 'Priya',
      last_name: 'Sen',
      role: 'superadmin',
    });
    expect(await verifyPassword('right-secret-1', admin!.password_hash)).toBe(true);
    expect(screen).toMatch(/Starter catalogue:\s+no/);
  });

  it('states the password rule at the prompt and refuses a short password there, not after the last answer', async () => {
    const dir = tempDir();
    await provisionDir(dir);
    const { code, screen } = await drive(
      ['--data-dir', dir, 'setup', '--lab-name', 'Sunrise Diagnostics', '--admin-email', 'priya@sunrise.in'],
      [
        ['Lab address', '\r'],
        ['Lab phone', '\r'],
        ['Lab email', '\r'],
        ['Administrator name', '\r'],
        ['at least 10 characters, with a letter and a digit', 'abcdefgh\r'],
        ['Password must be at least 10 characters', ''],
        // The prompt keeps what was typed: clear it and type a good one.
        ['Password must contain a digit', '\x15sunrise-lab-7\r'],
        ['Confirm the password', 'sunrise-lab-7\r'],
        ['Timezone', '\r'],
        ['Currency', '\r'],
        ['Date format', '\r'],
        ['Load the starter catalogue', 'n\r'],
        ['Create the lab now?', 'y\r'],
        ['is set up', ''],
      ],
    );
    expect(screen).toContain('Lab "Sunrise Diagnostics" is set up.');
    expect(code).toBe(0);
    const database = await openLabDatabase(dir);
    try {
      const admin = await row<{ password_hash: string }>(database, 'SELECT password_hash FROM users');
      expect(await verifyPassword('sunrise-lab-7', admin!.password_hash)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('stops on Ctrl+C with exit 130, as a shell expects of an interrupted program, and stores nothing', async () => {
    const dir = tempDir();
    await provisionDir(dir);
    const { code, screen } = await drive(
      ['--data-dir', dir, 'setup'],
      [
        ['Lab name', 'Sunrise Diagnostics\r'],
        ['Lab address', '\x03'],
        ['nothing was changed', ''],
      ],
    );
    expect(screen).toContain('cancelled; nothing was changed');
    expect(code).toBe(130);
    expect(existsSync(join(dir, 'lims.db'))).toBe(false);
  });
});
