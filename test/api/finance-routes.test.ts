import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { badFields } from './support.js';
import { paymentsApi, closingsApi } from '../../src/shared/api/payments.js';
import { revenueApi } from '../../src/shared/api/revenue.js';
import { invoicesApi } from '../../src/shared/api/invoices.js';
import { payersApi } from '../../src/shared/api/payers.js';
import { billingSettingsApi } from '../../src/shared/api/billing-settings.js';
import type { RouteContract } from '../../src/shared/api/contract.js';
import { hasPermission, type Permission } from '../../src/shared/roles.js';

/**
 * Every finance route, walked from its contract so a route added later is covered too:
 * technicians are refused all of them, billing staff may use every one their role's permissions
 * name, and a path id that is not a number is a 400 naming it, with nothing stored.
 */

const ROUTES: [string, RouteContract][] = Object.entries({
  ...prefixed('payments', paymentsApi),
  ...prefixed('closings', closingsApi),
  ...prefixed('revenue', revenueApi),
  ...prefixed('invoices', invoicesApi),
  ...prefixed('payers', payersApi),
  ...prefixed('billingSettings', billingSettingsApi),
});

function prefixed(name: string, api: Record<string, RouteContract>): Record<string, RouteContract> {
  return Object.fromEntries(Object.entries(api).map(([k, v]) => [`${name}.${k}`, v]));
}

const needs = (r: RouteContract): Permission[] =>
  (typeof r.access === 'string' ? [r.access] : [...r.access]) as Permission[];

function call(c: Client, r: RouteContract, id: string) {
  const url = r.path.replace(/:[A-Za-z_]+/g, id);
  if (r.method === 'GET') return c.get(url);
  if (r.method === 'DELETE') return c.delete(url);
  return r.method === 'PUT' ? c.put(url, {}) : c.post(url, {});
}

const TABLES = ['payments', 'day_closings', 'invoices', 'payers', 'payer_prices'] as const;
async function stored(lab: TestLab): Promise<number[]> {
  return Promise.all(
    TABLES.map(async (t) => {
      const r = await lab.database.db
        .selectFrom(t)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    }),
  );
}

let lab: TestLab;
let staff: Client;
let tech: Client;
beforeAll(async () => {
  lab = await makeLab();
  staff = await lab.as('billing_staff');
  tech = await lab.as('technician');
});
afterAll(() => lab.close());

describe('finance routes, each from its contract', () => {
  it('covers the payments, closing, revenue, invoice, payer and billing-settings routes', () => {
    expect(ROUTES.length).toBeGreaterThanOrEqual(30);
  });

  it('technicians: every one is refused (403) and nothing is stored', async () => {
    const before = await stored(lab);
    for (const [name, r] of ROUTES) expect((await call(tech, r, '1')).statusCode, name).toBe(403);
    expect(await stored(lab)).toEqual(before);
  });

  it('billing staff: every route their permissions name answers them; only lab settings and the export are not theirs', async () => {
    const refused: string[] = [];
    for (const [name, r] of ROUTES) {
      const mine = needs(r).every((p) => hasPermission('billing_staff', p));
      const status = (await call(staff, r, '1')).statusCode;
      if (mine) expect(status, name).not.toBe(403);
      else {
        expect(status, name).toBe(403);
        refused.push(name);
      }
    }
    // Closing rules and the lab's GSTIN are an administrator's (system_settings); exporting the
    // revenue report needs export_data, which the role does not carry (the screen hides the buttons).
    expect(refused.sort()).toEqual(['billingSettings.update', 'closings.updateSettings', 'revenue.export']);
  });

  it('a path id that is not a number is a 400 naming it, on every route that takes one; nothing stored', async () => {
    const before = await stored(lab);
    const withIds = ROUTES.filter(([, r]) => r.path.includes('/:'));
    expect(withIds.length).toBeGreaterThanOrEqual(15);
    for (const [name, r] of withIds) {
      const fields = badFields(await call(lab.admin, r, 'abc'));
      expect(fields.length, name).toBeGreaterThan(0);
      for (const f of fields) expect(r.path, name).toContain(`:${f}`);
    }
    expect(await stored(lab)).toEqual(before);
  });
});

describe('bad input the other finance tests do not send', () => {
  it('revenue analytics and export, closing history, payer prices and payer edits: 400 naming the field, nothing stored', async () => {
    const payer = (await lab.admin.post('/api/payers', { name: 'Sharma Hospital', type: 'hospital' })).json().payer;
    const before = await stored(lab);
    const cases: [string, Promise<Parameters<typeof badFields>[0]>, string[]][] = [
      ['analytics from', staff.get('/api/revenue/analytics?from=2026-13-01'), ['from']],
      ['analytics to before from', staff.get('/api/revenue/analytics?from=2026-03-02&to=2026-03-01'), ['to']],
      ['export from', lab.admin.get('/api/revenue/export?format=csv&from=2026-02-30'), ['from']],
      ['closing history from', staff.get('/api/closings/history?from=2026-02-30'), ['from']],
      ['closing of a user id', staff.get('/api/closings?date=2026-01-01&user_id=abc'), ['user_id']],
      [
        'price without its item',
        lab.admin.post(`/api/payers/${payer.id}/prices`, { price: 100, effective_from: '2026-01-01' }),
        ['item_type', 'item_id'],
      ],
      [
        'price below zero',
        lab.admin.post(`/api/payers/${payer.id}/prices`, {
          item_type: 'test',
          item_id: 1,
          price: -1,
          effective_from: '2026-01-01',
        }),
        ['price'],
      ],
      ['payer credit limit', lab.admin.put(`/api/payers/${payer.id}`, { credit_limit: -5 }), ['credit_limit']],
      ['payer type', lab.admin.put(`/api/payers/${payer.id}`, { type: 'friend' }), ['type']],
    ];
    for (const [name, res, fields] of cases) expect(badFields(await res), name).toEqual(fields);
    expect(await stored(lab)).toEqual(before);
  });
});
