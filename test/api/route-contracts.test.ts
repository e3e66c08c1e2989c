import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { buildApp } from '../../src/server/app.js';
import { compileResponseWriter, route } from '../../src/server/contract.js';
import { openDatabase } from '../../src/core/db/connection.js';
import { defineRoute, isFileResponse } from '../../src/shared/api/contract.js';
import type { RegisteredRoute } from '../../src/server/types.js';
import { allContracts } from './contracts.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

function withoutContract(routes: RegisteredRoute[]): string[] {
  return routes
    .filter((r) => r.url.startsWith('/api'))
    .filter((r) => !r.contract || r.contract.response === undefined)
    .map((r) => `${r.method} ${r.url}`);
}

describe('every API route is declared once, as a contract in src/shared/api', () => {
  it('has no /api route registered without a contract with a response schema', () => {
    expect(lab.app.routeList.filter((r) => r.url.startsWith('/api')).length).toBeGreaterThan(90);
    expect(withoutContract(lab.app.routeList)).toEqual([]);
  });

  it('registers every contract that src/shared/api declares (no contract without its route)', async () => {
    const registered = new Set(lab.app.routeList.map((r) => `${r.method} ${r.url}`));
    const missing = (await allContracts())
      .filter(({ contract }) => !registered.has(`${contract.method} ${contract.path}`))
      .map(({ name }) => name);
    expect(missing).toEqual([]);
  });

  it('gives every JSON route a zod response schema and every file route a content type', async () => {
    for (const { name, contract } of await allContracts()) {
      const ok = isFileResponse(contract.response)
        ? contract.response.file.length > 0
        : contract.response instanceof z.ZodType;
      expect(ok, name).toBe(true);
    }
  });

  it('compiles every JSON response schema into its writer (done lazily at run time, so checked here)', async () => {
    const failed: string[] = [];
    for (const { name, contract } of await allContracts()) {
      if (isFileResponse(contract.response)) continue;
      try {
        compileResponseWriter(contract.response as z.ZodType);
      } catch (err) {
        failed.push(`${name}: ${(err as Error).message}`);
      }
    }
    expect(failed).toEqual([]);
  });

  it('finds a route registered the old way, without a contract', async () => {
    const database = openDatabase(join(tempDir(), 'lims.db'));
    const app = await buildApp({ database, logger: false });
    try {
      app.get('/api/forgotten', { config: { access: 'public' } }, async () => ({ ok: true }));
      await app.ready();
      expect(withoutContract(app.routeList)).toEqual(['GET /api/forgotten']);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('sends only the fields the response schema names', async () => {
    const database = openDatabase(join(tempDir(), 'lims.db'));
    const app = await buildApp({ database, logger: false });
    try {
      const contract = defineRoute({
        method: 'GET',
        path: '/api/planted',
        access: 'public',
        response: z.object({ name: z.string(), count: z.number().int() }),
      });
      // The handler returns more than the contract names, as a row with a password hash would.
      route(app, contract, async () => ({ name: 'x', count: 2, password_hash: 'secret' }) as never);
      const res = await app.inject({ url: '/api/planted' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'x', count: 2 });
      expect(res.body).not.toContain('secret');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
