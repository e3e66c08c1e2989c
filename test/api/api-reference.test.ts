import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as prettier from 'prettier';
import { makeLab, type TestLab } from '../helpers.js';
import { isFileResponse, type RouteContract } from '../../src/shared/api/contract.js';

/**
 * docs/api.md is written from the contracts (src/shared/api), so it cannot drift from the server:
 * this test regenerates it and fails when the file differs. `UPDATE_API_DOC=1 npx vitest run
 * test/api/api-reference.test.ts` rewrites it after a contract changes.
 */
const DOC = new URL('../../docs/api.md', import.meta.url);

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

type Json = { type?: string | string[]; properties?: Record<string, Json>; required?: string[]; enum?: unknown[] };

function fields(schema: z.ZodType | undefined): string {
  if (!schema) return '';
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  const props = json.properties ?? {};
  return Object.keys(props)
    .map((k) => `\`${k}\`${json.required?.includes(k) ? '' : '?'}`)
    .join(', ');
}

function responseText(c: RouteContract): string {
  if (isFileResponse(c.response)) return `file (${c.response.file})`;
  const json = z.toJSONSchema(c.response, { io: 'output', unrepresentable: 'any' }) as Json;
  const keys = Object.keys(json.properties ?? {});
  return keys.length ? `{${keys.join(', ')}}` : 'JSON';
}

function access(c: RouteContract): string {
  return typeof c.access === 'string' ? c.access : c.access.join(' + ');
}

function reference(contracts: RouteContract[]): string {
  const byArea = new Map<string, RouteContract[]>();
  for (const c of contracts) {
    const area = c.path.split('/')[2] ?? '';
    byArea.set(area, [...(byArea.get(area) ?? []), c]);
  }
  const lines = [
    '# lims API reference',
    '',
    'Written from the route contracts in `src/shared/api/` by `test/api/api-reference.test.ts` (do not',
    'edit by hand: `UPDATE_API_DOC=1 npx vitest run test/api/api-reference.test.ts` rewrites it). Every',
    'route, its access (a permission, `authenticated` or `public`; see roles-and-permissions.md), its',
    'inputs and the top-level fields of its answer. Money is rupees with 2 decimals; errors are',
    '`{statusCode, error, message, code?, details?: [{path, message}]}` (400 names each bad field).',
    '',
  ];
  for (const [area, list] of [...byArea].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`## /api/${area}`, '', '| route | access | params / query | body | answer |', '|---|---|---|---|---|');
    for (const c of list) {
      const inputs = [fields(c.params), fields(c.query)].filter(Boolean).join('; ');
      const status = c.status && c.status !== 200 ? `${c.status} ` : '';
      lines.push(
        `| \`${c.method} ${c.path}\` | ${access(c)} | ${inputs} | ${fields(c.body)} | ${status}${responseText(c)} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

describe('docs/api.md', () => {
  it('lists every route as its contract declares it', async () => {
    const contracts = lab.app.routeList
      .filter((r) => r.url.startsWith('/api') && r.contract)
      .map((r) => r.contract!)
      .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
    // Formatted as `npm run lint` (prettier --check) wants it.
    const options = (await prettier.resolveConfig(DOC.pathname)) ?? {};
    const text = await prettier.format(reference(contracts), { ...options, parser: 'markdown' });
    if (process.env.UPDATE_API_DOC === '1') writeFileSync(DOC, text);
    expect(readFileSync(DOC, 'utf8')).toBe(text);
  });
});
