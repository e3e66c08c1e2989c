import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A comment says why the code is as it is, not which issue or stretch of work wrote it: that is
 * git's history. Every tracked source, test, bench, script and root config file is read for "issue 14",
 * "issues 14-16" or "session 13" (case aside); bench/results.md is measurements with their dates, and this file names what it looks for.
 */
const ROOT = new URL('../..', import.meta.url).pathname;
const SELF = 'test/lint/comments-say-why.test.ts';
const HISTORY = /\b(?:issues?|sessions?) \d+/i;

function trackedFiles(): string[] {
  const dirs = ['src', 'test', 'bench', 'scripts', 'eslint', 'bin'];
  const rootConfigs = ['eslint.config.js', 'vite.config.ts', 'vitest.config.ts'];
  return execFileSync('git', ['ls-files', ...dirs, ...rootConfigs], { cwd: ROOT })
    .toString()
    .split('\n')
    .filter((f) => /\.(ts|tsx|mts|mjs|js|css|md)$/.test(f) && f !== 'bench/results.md' && f !== SELF);
}

describe('comments name no issue or session', () => {
  it('holds for every tracked source, test, bench and script file', () => {
    const found: string[] = [];
    for (const f of trackedFiles()) {
      const lines = readFileSync(join(ROOT, f), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (HISTORY.test(line)) found.push(`${f}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('would find one', () => {
    expect(HISTORY.test('// Issue 14: bills of an earlier system')).toBe(true);
    expect(HISTORY.test(' * (issue 16; spec 001)')).toBe(true);
    expect(HISTORY.test(' * The live board, session 13.')).toBe(true);
    expect(HISTORY.test(' * why the session ends at 12 hours')).toBe(false);
  });
});
