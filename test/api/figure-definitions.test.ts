import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { createPatient } from './support.js';
import { liveBoard } from '../../src/core/analytics/service.js';
import { systemActor } from '../../src/core/context.js';
import { addDays, localDate } from '../../src/shared/time.js';

/**
 * One meaning per figure (src/shared/figures.ts), each on a lab where the old readings differed:
 * a test's turnaround target, a sample "registered" on a day, bill discounts, low stock.
 */
let lab: TestLab;
let org: number;
let seq = 0;
const TZ = 'Asia/Kolkata';

beforeAll(async () => {
  lab = await makeLab();
  org = lab.organizationId;
});
afterAll(() => lab.close());

async function sample(patientId: number, createdAt: string, collectedAt: string, testIds: number[]) {
  seq += 1;
  const row = await lab.database.db
    .insertInto('samples')
    .values({
      organization_id: org,
      sample_code: `FIG${String(seq).padStart(4, '0')}`,
      barcode: null,
      patient_id: patientId,
      bill_id: null,
      sample_type: 'Blood',
      collector_id: null,
      location: 'Main Lab',
      priority: 'normal',
      status: 'processing',
      notes: null,
      rejection_reason: null,
      collection_date: collectedAt,
      completed_at: null,
      created_by: null,
      created_at: createdAt,
      updated_at: createdAt,
      container: null,
      reported_at: null,
      release_reason: null,
      released_by: null,
      released_at: null,
    })
    .returning(['id', 'sample_code'])
    .executeTakeFirstOrThrow();
  await lab.database.db
    .insertInto('sample_tests')
    .values(testIds.map((test_id, position) => ({ sample_id: row.id, test_id, position })))
    .execute();
  return { id: Number(row.id), code: row.sample_code, patientId };
}

async function verified(s: { id: number; patientId: number }, testId: number, at: string) {
  await lab.database.db
    .insertInto('test_results')
    .values({
      organization_id: org,
      sample_id: s.id,
      test_id: testId,
      patient_id: s.patientId,
      result_value: '95',
      unit: 'mg/dL',
      normal_range: '70-110',
      flag: 'normal',
      is_critical: 0,
      status: 'verified',
      review_required: 0,
      notes: null,
      rejection_reason: null,
      technician_id: null,
      entered_at: at,
      verified_by: lab.admin.userId,
      verified_at: at,
      amended: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

const minutesAfter = (iso: string, m: number) => new Date(Date.parse(iso) + m * 60_000).toISOString();

describe('a test’s turnaround target: Target TAT (minutes), else Turnaround Time (hours), on every screen', () => {
  it('the report and the live board read the same target from either field', async () => {
    const mk = async (code: string, body: Record<string, unknown>) => {
      const res = await lab.admin.post('/api/tests', { name: `Test ${code}`, code, price: 100, ...body });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().test.id as number;
    };
    const minutesOnly = await mk('TATM', { target_tat_minutes: 90 });
    const hoursOnly = await mk('TATH', { turnaround_hours: 2 });
    const p = (await createPatient(lab.admin)).id;
    // Ten days ago: one of each verified in 100 minutes (past 90, within 2 hours).
    const day = addDays(localDate(TZ), -10);
    const at = `${day}T04:00:00.000Z`;
    const done = await sample(p, at, at, [minutesOnly, hoursOnly]);
    await verified(done, minutesOnly, minutesAfter(at, 100));
    await verified(done, hoursOnly, minutesAfter(at, 100));
    const report = (await lab.admin.get(`/api/reports/tat-by-test?from=${day}&to=${day}`)).json();
    const rows = report.report?.rows ?? report.rows;
    const byName = (n: string) => rows.find((r: { test_name: string }) => r.test_name === n);
    expect(byName('Test TATM')).toMatchObject({ target_minutes: 90, over_target: 1 });
    expect(byName('Test TATH')).toMatchObject({ target_minutes: 120, over_target: 0 });
    const notes = JSON.stringify(report);
    expect(notes).toContain('Target TAT (minutes), else its Turnaround Time (hours)');

    // Open now, collected three hours ago: past both targets on the board.
    const now = new Date();
    const open = await sample(p, minutesAfter(now.toISOString(), -180), minutesAfter(now.toISOString(), -180), [
      minutesOnly,
      hoursOnly,
    ]);
    const board = await liveBoard(lab.database.db, systemActor(org), now);
    const mine = board.tat_breaches.items.filter((b) => b.sample_code === open.code);
    expect(mine.map((b) => [b.test_name, b.target_minutes]).sort()).toEqual([
      ['Test TATH', 120],
      ['Test TATM', 90],
    ]);
  });
});

describe('a sample is registered on the day it was entered, whenever it was collected', () => {
  it('Lab Reports counts it on its registration day, not its back-dated collection day', async () => {
    const p = (await createPatient(lab.admin)).id;
    const test = (await lab.admin.post('/api/tests', { name: 'Registered Test', code: 'REGT', price: 10 })).json().test
      .id as number;
    const today = localDate(TZ);
    const count = async () => {
      const a = (await lab.admin.get('/api/lab-reports/analytics?days=7')).json();
      const perDay = (a.analytics ?? a).per_day as { date: string; registered: number }[];
      return Object.fromEntries(perDay.map((d) => [d.date, d.registered]));
    };
    const was = await count();
    // Entered now, collected (as written on the form) two days ago.
    const now = new Date().toISOString();
    await sample(p, now, `${addDays(today, -2)}T06:00:00.000Z`, [test]);
    const is = await count();
    expect(is[today]).toBe((was[today] ?? 0) + 1);
    expect(is[addDays(today, -2)]).toBe(was[addDays(today, -2)] ?? 0);
  });
});

describe('bill discounts: the discount on a bill as a whole, the same figure on Revenue and Discounts Given', () => {
  it('Revenue’s Bill discounts column equals Discounts Given’s bill discounts; the total adds line discounts', async () => {
    const test = (await lab.admin.post('/api/tests', { name: 'Discount Test', code: 'DSCT', price: 1000 })).json().test
      .id as number;
    const p = await createPatient(lab.admin);
    const res = await lab.admin.post('/api/bills', {
      patient_id: p.id,
      items: [{ item_type: 'test', item_id: test, discount_percent: 10 }],
      discount_percentage: 5,
    });
    expect(res.statusCode, res.body).toBe(201);
    const today = localDate(TZ);
    const revenue = (await lab.admin.get(`/api/revenue/daily?from=${today}&to=${today}`)).json();
    expect(revenue.totals.discounts).toBe(45); // 5% of 900
    const csv = (await lab.admin.get(`/api/revenue/export?format=csv&from=${today}&to=${today}`)).body;
    expect(csv.split('\n')[0]).toContain('Bill discounts');
    expect(csv.split('\n')[0]).not.toMatch(/(^|,)"?Discounts"?(,|$)/);
    const given = (await lab.admin.get(`/api/reports/discounts?from=${today}&to=${today}`)).json();
    const g = given.report ?? given;
    expect(g.totals).toMatchObject({ line_discounts: 100, bill_discounts: 45, total_discount: 145 });
    expect(JSON.stringify(g.notes)).toContain('Bill discounts: on a bill as a whole, the figure Revenue');
  });
});

describe('low stock: at or below the minimum, out of stock included; out of stock is a part of it', () => {
  it('every out-of-stock item is in the low-stock count, an item whose only lot expired too', async () => {
    const add = async (code: string, current: number, min: number) => {
      const res = await lab.admin.post('/api/inventory', {
        item_code: code,
        item_name: `Item ${code}`,
        kind: 'consumable',
        category: 'Figures',
        unit: 'pcs',
        minimum_stock: min,
        current_stock: current,
        ...(current > 0 ? { expiry_date: addDays(localDate(TZ), 100) } : {}),
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().item.id as number;
    };
    await add('LOWA', 0, 5); // empty
    await add('LOWB', 3, 5); // low
    await add('LOWC', 20, 2); // plenty
    const expired = await add('LOWD', 10, 2); // above the minimum, but its only lot has expired
    await lab.database.db
      .updateTable('inventory_lots')
      .set({ expiry_date: addDays(localDate(TZ), -3) })
      .where('item_id', '=', expired)
      .execute();
    const s = (await lab.admin.get('/api/inventory/summary?kind=consumable')).json().summary;
    expect(s.out_of_stock).toBe(2);
    expect(s.low_stock).toBe(3);
  });
});
