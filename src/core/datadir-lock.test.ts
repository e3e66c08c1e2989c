import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirBusy, lockDataDir, lockPaths } from './datadir-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'lims-lock-'));
  dirs.push(d);
  return d;
}

describe('lockDataDir', () => {
  it('refuses a second holder, naming the first, and the refused one touches none of its files', () => {
    const d = dir();
    const first = lockDataDir(d, 'lims serve', { servePid: true });
    const holderBefore = readFileSync(lockPaths(d).holder, 'utf8');
    let refused: unknown;
    try {
      lockDataDir(d, 'lims import patients', { servePid: true });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirBusy);
    expect((refused as DataDirBusy).holder).toMatchObject({ pid: process.pid, command: 'lims serve' });
    expect(readFileSync(lockPaths(d).holder, 'utf8')).toBe(holderBefore);
    expect(readFileSync(lockPaths(d).servePid, 'utf8')).toBe(`${process.pid}\n`);
    first.release();
    first.release();
    const next = lockDataDir(d, 'lims restore');
    expect(JSON.parse(readFileSync(lockPaths(d).holder, 'utf8'))).toMatchObject({ command: 'lims restore' });
    next.release();
  });

  it('a holder file left by a process that died is information, not a lock', () => {
    const d = dir();
    writeFileSync(lockPaths(d).holder, JSON.stringify({ pid: 999999, command: 'lims serve', since: 'x' }));
    writeFileSync(lockPaths(d).servePid, '999999\n');
    const lock = lockDataDir(d, 'lims serve', { servePid: true });
    expect(readFileSync(lockPaths(d).servePid, 'utf8')).toBe(`${process.pid}\n`);
    lock.release();
  });

  it('names a holder that has not written its details yet without guessing', () => {
    const d = dir();
    const lock = lockDataDir(d, 'lims serve');
    rmSync(lockPaths(d).holder);
    expect(() => lockDataDir(d, 'lims serve')).toThrow(
      `the data dir ${d} is in use by another lims process (it has not written its details yet)`,
    );
    lock.release();
  });
});
