import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Database_, Db } from '../../src/core/db/connection.js';
import { setupLab } from '../../src/core/setup/service.js';
import { insertHistoricalBill, type HistoricalBill } from '../../src/core/billing/history.js';
import { withSavepoint } from '../../src/core/db/savepoint.js';
import { systemActor } from '../../src/core/context.js';
import { statisticsAsWritten } from '../../src/core/db/bulk-statistics.js';
import { SUMMED_AT_COMMIT, pendingTable } from '../../src/core/db/migrations/038_summaries_at_commit.js';
import { ENGINE, openTestDatabase } from '../db.js';

/**
 * Migration 38: on PostgreSQL the summaries a row trigger adds to are written at the commit, once
 * per key; SQLite's stay in place. Either way the summaries equal the rows after the commit, with
 * savepoints rolled back on the way, and a fold made early in the transaction.
 */
let database: Database_;
let org: number;
let patientId: number;
let tests: { id: number; name: string; code: string; price_paise: number }[];

beforeAll(async () => {
  database = await openTestDatabase();
  ({ organizationId: org } = await setupLab(database.db, {
    labName: 'Commit Lab',
    adminName: 'Asha Admin',
    adminEmail: 'admin@commit.test',
    adminPassword: 'commit-lab-2024',
    timezone: 'Asia/Kolkata',
    currency: 'INR',
    dateFormat: 'DD/MM/YYYY',
    importSampleTests: true,
    importSampleProfiles: false,
    importSamplePackages: false,
  }));
  const now = new Date().toISOString();
  patientId = Number(
    (
      await sql<{
        id: number;
      }>`INSERT INTO patients (organization_id, patient_code, first_name, last_name, gender, date_of_birth, created_at, updated_at)
        VALUES (${org}, 'PCOMMIT1', 'Ravi', 'Rao', 'Male', '1980-01-01', ${now}, ${now}) RETURNING id`.execute(
        database.db,
      )
    ).rows[0]!.id,
  );
  tests = (await database.db.selectFrom('tests').select(['id', 'name', 'code', 'price_paise']).limit(6).execute()).map(
    (t) => ({ ...t, id: Number(t.id) }),
  );
});
afterAll(async () => {
  await database.close();
});

let made = 0;
/** A bill of two or three lines, some with a line discount, paid in full, at minute k of a day in June. */
function bill(k: number): HistoricalBill {
  made += 1;
  const at = new Date(Date.UTC(2026, 5, 1 + (k % 3), 4, 0, 0) + made * 60_000).toISOString();
  const lines = tests.slice(k % 3, (k % 3) + 2 + (k % 2)).map((t, j) => {
    const discount = j === 0 && k % 4 === 0 ? 1000 : 0;
    return {
      item_type: 'test' as const,
      test_id: t.id,
      profile_id: null,
      package_id: null,
      name: t.name,
      code: t.code,
      qty: 1,
      list_price_paise: t.price_paise,
      unit_price_paise: t.price_paise,
      gst_percent: 0,
      discount_percent: 0,
      tax_category: '',
      sac_code: '',
      discount_amount_paise: discount,
      total_paise: t.price_paise - discount,
    };
  });
  const sub = lines.reduce((a, l) => a + l.total_paise, 0);
  return {
    bill_number: `OPB${at.slice(0, 16).replace(/[-T:]/g, '')}`,
    patient_id: patientId,
    doctor_id: null,
    payer_id: null,
    visit_type: 'lab_only',
    subtotal_paise: sub,
    consultation_fee_paise: 0,
    total_before_discount_paise: sub,
    discount_percentage: 0,
    discount_amount_paise: 0,
    tax_percentage: 0,
    tax_amount_paise: 0,
    final_amount_paise: sub,
    payment_method: 'cash',
    due_date: at.slice(0, 10),
    notes: null,
    cancelled_at: null,
    cancel_reason: null,
    created_at: at,
    lines,
    payments: [
      {
        kind: 'payment',
        status: 'completed',
        amount_paise: sub,
        advance_paise: 0,
        method: 'cash',
        reference: null,
        bank: null,
        reason: null,
        refund_of: null,
        refunded_paise: 0,
        value_date: null,
        created_at: at,
        settled_at: null,
      },
    ],
  };
}

const one = async (db: Db, q: string) => Number((await sql.raw<{ n: number | null }>(q).execute(db)).rows[0]!.n ?? 0);

const LIVE_BILLS = 'FROM bills b WHERE b.cancelled_at IS NULL';
/**
 * Each summary's sum beside the same sum from the rows. (The ledger is left out: these bills'
 * payments are given no value date, so both sides would be 0; report-summaries.test.ts covers it.)
 */
const PAIRS: Record<string, [summary: string, rows: string]> = {
  doctor: ['SELECT SUM(bills) AS n FROM report_doctor_daily', `SELECT COUNT(*) AS n ${LIVE_BILLS}`],
  doctorPaise: [
    'SELECT SUM(final_paise) AS n FROM report_doctor_daily',
    `SELECT SUM(final_amount_paise) AS n ${LIVE_BILLS}`,
  ],
  doctorMonthly: ['SELECT SUM(bills) AS n FROM report_doctor_monthly', `SELECT COUNT(*) AS n ${LIVE_BILLS}`],
  billed: ['SELECT SUM(total_paise) AS n FROM report_billed_daily', 'SELECT SUM(total_paise) AS n FROM bill_items'],
  billedMonthly: ['SELECT SUM(lines) AS n FROM report_billed_monthly', 'SELECT COUNT(*) AS n FROM bill_items'],
  slots: ['SELECT SUM(billed_paise) AS n FROM report_slots', 'SELECT SUM(total_paise) AS n FROM bill_items'],
  discounts: [
    'SELECT SUM(line_paise) AS n FROM report_discounts_daily',
    'SELECT SUM(discount_amount_paise) AS n FROM bill_items',
  ],
  discountedBills: [
    'SELECT SUM(discounted_bills) AS n FROM report_discounts_daily',
    'SELECT COUNT(DISTINCT bill_id) AS n FROM bill_items WHERE discount_amount_paise > 0',
  ],
};

async function sums(db: Db): Promise<Record<string, [number, number]>> {
  const out: Record<string, [number, number]> = {};
  for (const [name, [summary, rows]] of Object.entries(PAIRS))
    out[name] = [await one(db, summary), await one(db, rows)];
  return out;
}

const pendingRows = async (db: Db) => {
  if (ENGINE !== 'postgres') return 0;
  let n = await one(db, 'SELECT COUNT(*) AS n FROM report_fold_marker');
  for (const s of SUMMED_AT_COMMIT) n += await one(db, `SELECT COUNT(*) AS n FROM ${pendingTable(s.table)}`);
  return n;
};

describe(`summaries of a big transaction on ${ENGINE}`, () => {
  it('equal the rows after the commit, with rolled-back savepoints and a fold made early', async () => {
    const actor = systemActor(org, 'test');
    const before = await sums(database.db);
    await database.db.transaction().execute(async (trx) => {
      for (let k = 0; k < 30; k++) {
        const b = bill(k);
        if (k % 7 === 3) {
          // A row the import refuses after writing it: its savepoint takes its shares away.
          await expect(
            withSavepoint(trx, async () => {
              await insertHistoricalBill(trx, actor, b);
              throw new Error('refused');
            }),
          ).rejects.toThrow('refused');
        } else await withSavepoint(trx, () => insertHistoricalBill(trx, actor, b));
        if (k === 14 && ENGINE === 'postgres') {
          // Inside the transaction the summaries do not have its bills yet (they are pending) ...
          expect((await sums(trx)).doctor![0]).toBe(before.doctor![0]);
          expect(await pendingRows(trx)).toBeGreaterThan(0);
          // ... unless the deferred fold is asked for now; later bills are then folded at the commit.
          await sql`SET CONSTRAINTS ALL IMMEDIATE`.execute(trx);
          expect(await pendingRows(trx)).toBe(0);
          const early = await sums(trx);
          for (const [name, [summary, rows]] of Object.entries(early)) expect(summary, name).toBe(rows);
          await sql`SET CONSTRAINTS ALL DEFERRED`.execute(trx);
        }
      }
    });
    const after = await sums(database.db);
    for (const [name, [summary, rows]] of Object.entries(after)) expect(summary, name).toBe(rows);
    expect(after.doctor![1]).toBe(before.doctor![1] + 30 - 4); // k = 3, 10, 17, 24 rolled back
    expect(await pendingRows(database.db)).toBe(0);
  });
});

describe('statistics as a big import writes', () => {
  it(`on ${ENGINE}: ${ENGINE === 'postgres' ? 'ANALYZE after 100, 400, 1,600 rows written' : 'nothing to do'}`, async () => {
    const analyzed = async () =>
      ENGINE === 'postgres'
        ? await one(database.db, "SELECT analyze_count AS n FROM pg_stat_user_tables WHERE relname = 'bill_items'")
        : 0;
    const refresh = statisticsAsWritten(database.db);
    const start = await analyzed();
    const seen: number[] = [];
    for (const written of [50, 99, 100, 250, 399, 420, 1500, 1700]) {
      await refresh(written);
      seen.push((await analyzed()) - start);
    }
    expect(seen).toEqual(ENGINE === 'postgres' ? [0, 0, 1, 1, 1, 2, 2, 3] : [0, 0, 0, 0, 0, 0, 0, 0]);
  });
});
