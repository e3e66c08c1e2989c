import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ADMIN_EMAIL, PASSWORD, login, makeLab, type TestLab } from '../helpers.js';
import type { RouteContract } from '../../src/shared/api/contract.js';
import { allContracts } from './contracts.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

/** Every route that changes something (not GET). */
async function actionContracts() {
  return (await allContracts()).filter(({ contract }) => contract.method !== 'GET');
}

/** Zod's own wording, which means nothing to the person who sent the request. */
const ZOD_INTERNAL = /expected \w+, received|Invalid input|Invalid option|Unrecognized key/;

/**
 * The path with each parameter filled by a value its schema takes that names nothing: an id, a
 * token or one of an enum's values. A route that takes the empty body then answers 404 for its
 * record, and no handler changes a row of the lab while the routes are walked.
 */
function path(contract: RouteContract): string {
  const shape = (contract.params as { shape?: Record<string, z.ZodType & { options?: unknown[] }> } | undefined)?.shape;
  return contract.path.replace(/:([a-zA-Z_]+)/g, (_m, name: string) => {
    const schema = shape?.[name];
    const candidates = ['987654', 'f'.repeat(32), 'f'.repeat(64), ...(schema?.options ?? []).map(String)];
    return candidates.find((c) => schema?.safeParse(c).success) ?? 'none';
  });
}

describe('action routes sent with no body (curl -X POST, a script)', () => {
  it('no route answers in zod words; a route with nothing to say takes the empty body', async () => {
    const contracts = await actionContracts();
    expect(contracts.length).toBeGreaterThan(100);
    let cookie = lab.admin.cookie;
    const zodWords: string[] = [];
    const refusedEmpty: string[] = [];
    // Sign-out and the like end the session: those go last so the rest are answered signed in.
    const ordered = [...contracts].sort(
      (a, b) => Number(/logout|sign-out/.test(a.contract.path)) - Number(/logout|sign-out/.test(b.contract.path)),
    );
    for (const { name, contract } of ordered) {
      const url = path(contract);
      let res = await lab.app.inject({ method: contract.method, url, headers: { cookie } });
      if (res.statusCode === 401 && contract.access !== 'public') {
        cookie = await login(lab.app, ADMIN_EMAIL, PASSWORD);
        res = await lab.app.inject({ method: contract.method, url, headers: { cookie } });
      }
      if (res.statusCode !== 400) continue;
      const body = res.json<{ message: string; code?: string; details?: { message: string }[] }>();
      const said = [body.message, ...(body.details ?? []).map((d) => d.message)].join(' | ');
      if (ZOD_INTERNAL.test(said)) zodWords.push(`${contract.method} ${contract.path} (${name}): ${said}`);
      // Only a body that takes {} must take no body; a query the route needs is another matter.
      const acceptsEmpty =
        ((contract.body as z.ZodType | undefined)?.safeParse({}).success ?? true) &&
        ((contract.query as z.ZodType | undefined)?.safeParse({}).success ?? true);
      if (acceptsEmpty && body.code === 'VALIDATION_ERROR') {
        refusedEmpty.push(`${contract.method} ${contract.path} (${name}): ${said}`);
      }
    }
    expect(zodWords).toEqual([]);
    expect(refusedEmpty).toEqual([]);
  });

  it('the audit case: POST /api/invoices/:id/issue with no body reaches the invoice (404), not a 400', async () => {
    const res = await lab.app.inject({
      method: 'POST',
      url: '/api/invoices/987654/issue',
      headers: { cookie: await login(lab.app, ADMIN_EMAIL, PASSWORD) },
    });
    expect(res.statusCode).toBe(404);
  });

  it('a route that needs a body names what is missing, in words', async () => {
    const cookie = await login(lab.app, ADMIN_EMAIL, PASSWORD);
    const res = await lab.app.inject({ method: 'POST', url: '/api/patients', headers: { cookie } });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ message: string; details: { path: string; message: string }[] }>();
    expect(body.message).not.toMatch(ZOD_INTERNAL);
    expect(body.details).toContainEqual({ path: 'first_name', message: expect.stringMatching(/first name/i) });
  });
});
