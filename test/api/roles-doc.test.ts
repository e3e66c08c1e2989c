import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS, ROLES, ROLE_PERMISSIONS } from '../../src/shared/roles.js';

const DOC = fileURLToPath(new URL('../../docs/roles-and-permissions.md', import.meta.url));

interface Matrix {
  roles: string[];
  rows: { permission: string; cells: string[] }[];
}

/** The markdown table whose header starts `| Permission |`: one row per permission, `x` where granted. */
function parseMatrix(markdown: string): Matrix {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^\|\s*Permission\s*\|/.test(l));
  if (start < 0) throw new Error('no "| Permission | ..." table in docs/roles-and-permissions.md');
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  const [, ...roles] = cells(lines[start]!);
  expect(
    cells(lines[start + 1]!).every((c) => /^:?-{3,}:?$/.test(c)),
    'separator row',
  ).toBe(true);
  const rows: Matrix['rows'] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith('|')) break;
    const [permission, ...rest] = cells(line);
    rows.push({ permission: permission!, cells: rest });
  }
  return { roles, rows };
}

describe('docs/roles-and-permissions.md', () => {
  const matrix = parseMatrix(readFileSync(DOC, 'utf8'));

  it('has one column per role, in the order of ROLES', () => {
    expect(matrix.roles).toEqual([...ROLES]);
  });

  it('has one row per permission, in the order of PERMISSIONS', () => {
    expect(matrix.rows.map((r) => r.permission)).toEqual([...PERMISSIONS]);
  });

  it('marks exactly the permissions ROLE_PERMISSIONS grants, with x or blank', () => {
    const mismatches: string[] = [];
    for (const row of matrix.rows) {
      expect(row.cells, row.permission).toHaveLength(ROLES.length);
      ROLES.forEach((role, i) => {
        const cell = row.cells[i];
        expect(['x', ''], `${row.permission} / ${role}: "${cell}"`).toContain(cell);
        const documented = cell === 'x';
        const granted = (ROLE_PERMISSIONS[role] as readonly string[]).includes(row.permission);
        if (documented !== granted)
          mismatches.push(`${row.permission} / ${role}: doc says ${documented}, code says ${granted}`);
      });
    }
    expect(mismatches).toEqual([]);
  });
});
