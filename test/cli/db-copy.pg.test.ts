import { join } from 'node:path';
import { readDataDirConfig } from '../../src/core/datadir.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabaseAt, type Database_ } from '../../src/core/db/connection.js';
import { parseDatabaseUrl } from '../../src/core/db/url.js';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { systemActor } from '../../src/core/context.js';
import { createPatient, listPatients } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { verifyChain } from '../../src/core/audit/audit.js';
import { seedResult, seedSample } from '../api/lab-records.js';
import { freshPostgresUrl, rows } from '../db.js';
import { ensureReportYear } from '../../bench/report-year.js';
import { refreshRollups } from '../../src/core/reports/rollups/days.js';
import { ADMIN, cleanup, lims, tempDir } from './helpers.js';

/**
 * `lims db copy`: a SQLite lab to PostgreSQL and back, every table, ids kept, the audit
 * chain verified on the target; a non-empty target and the same database are refused.
 */

let dir: string;
let sqliteUrl: string;
const patientIds: number[] = [];

/** Commands on the SQLite lab: the URL in the environment wins over the dir's provisioned config. */
const onSqlite = (args: string[]) => lims(['--data-dir', dir, ...args], { env: { LIMS_DATABASE_URL: sqliteUrl } });

async function counts(d: Database_): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ['organizations', 'users', 'patients', 'tests', 'bills', 'bill_items', 'audit_log', 'sequences']) {
    out[t] = Number((await rows<{ n: number }>(d, `SELECT count(*) AS n FROM ${t}`))[0]!.n);
  }
  return out;
}

/** The tables the copy does not carry but derives on the target, with the order their rows are compared in. */
const DERIVED = [
  ['live_open_tests', 'sample_id, test_id'],
  ['rollup_billed', 'day, item_type, test_id, profile_id, package_id, name'],
  ['rollup_workload', 'day, test_id'],
  ['rollup_turnaround', 'day, test_id'],
  ['rollup_day', 'day'],
  ['rollup_discounts', 'day, created_by'],
  ['rollup_revenue', 'day'],
  ['rollup_doctor', 'day, doctor_id'],
] as const;

/**
 * The live board's open tests and the report rollups of every lab day before today: the rollups
 * are rebuilt first from the days' stale marks (the copy marks every minute with rows stale on
 * its target), and no mark is left behind.
 */
async function derived(d: Database_): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const o of await rows<{ id: number }>(d, 'SELECT id FROM organizations ORDER BY id'))
    await refreshRollups(d.db, Number(o.id), '2000-01-01T00:00:00.000Z', new Date().toISOString());
  for (const [t, order] of DERIVED) {
    const all = await rows<Record<string, unknown>>(d, `SELECT * FROM ${t} ORDER BY organization_id, ${order}`);
    out.push(
      t,
      all.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v]),
        ),
      ),
    );
  }
  const today = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 16);
  out.push(
    'stale before the day before yesterday',
    Number((await rows<{ n: number }>(d, `SELECT count(*) AS n FROM rollup_stale WHERE minute < '${today}'`))[0]!.n),
  );
  return out;
}

beforeAll(async () => {
  dir = tempDir();
  sqliteUrl = `sqlite:${join(dir, 'lims.db')}`;
  const setup = await onSqlite(
    ['setup', '--yes', '--lab-name', 'Copy Diagnostics', '--sample-data'].concat([
      '--admin-email',
      ADMIN.email,
      '--admin-password',
      ADMIN.password,
    ]),
  );
  expect(setup.code, setup.stderr).toBe(0);
  const d = await openDatabaseAt(parseDatabaseUrl(sqliteUrl));
  try {
    const org = (await primaryOrganization(d.db))!;
    const actor = systemActor(org.id);
    const test = await d.db.selectFrom('tests').select('id').where('code', '=', 'FBS').executeTakeFirstOrThrow();
    for (const [first, last, phone] of [
      ['Sunita', 'Devi', '9876543210'],
      ['सुनीता', 'शर्मा', '9123456780'],
      ['José', 'Fernandes', '9988776655'],
    ] as const) {
      const p = await createPatient(d.db, actor, {
        first_name: first,
        last_name: last,
        date_of_birth: '1980-05-06',
        gender: 'Female',
        phone,
      });
      patientIds.push(p.id);
      await createBill(
        d.db,
        actor,
        billCreateSchema.parse({ patient_id: p.id, items: [{ item_type: 'test', item_id: test.id }] }),
      );
    }
    // A verified result, so the turnaround histogram (migration 35) has something to compare.
    const sample = await seedSample(d.db, org.id, { patientId: patientIds[0]!, testIds: [test.id], prefix: 'COPYTAT' });
    await d.db
      .updateTable('samples')
      .set({ collection_date: '2026-10-05T04:00:00.000Z' })
      .where('id', '=', sample.id)
      .execute();
    const result = await seedResult(d.db, org.id, {
      sampleId: sample.id,
      patientId: patientIds[0]!,
      testId: test.id,
      value: '99',
      flag: 'normal',
      status: 'completed',
    });
    await d.db
      .updateTable('test_results')
      .set({ status: 'verified', verified_at: '2026-10-05T05:35:00.000Z' })
      .where('id', '=', result)
      .execute();
  } finally {
    await d.close();
  }
});

afterAll(cleanup);

describe('lims db copy', () => {
  it('copies a SQLite lab into an empty PostgreSQL database: same rows, same ids, a valid audit chain, search works', async () => {
    const url = await freshPostgresUrl({ empty: true });
    const r = await onSqlite(['db', 'copy', '--to', url, '--use']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/patients: +3 rows/);
    // --use: the data dir now names the copy, so a command without a URL runs on PostgreSQL.
    expect(readDataDirConfig(dir).database_url).toBe(url);
    expect(r.stdout).toMatch(/audit chain verified on the target: [\d,]+ rows/);
    expect(r.stdout).not.toContain('lims-pg-secret');

    const from = await openDatabaseAt(parseDatabaseUrl(sqliteUrl));
    const to = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
    try {
      expect(await counts(to)).toEqual(await counts(from));
      const kept = await derived(from);
      // The open tests are there to compare (each bill's test, ordered on its sample), not two empty lists.
      expect(kept[kept.indexOf('live_open_tests') + 1]).toHaveLength(3);
      // The rollups of the past day too (the bills are today's, read from the rows): its ordered
      // test, the verified result's turnaround, the day's counts.
      for (const t of ['rollup_workload', 'rollup_turnaround', 'rollup_day'])
        expect(kept[kept.indexOf(t) + 1], t).not.toHaveLength(0);
      expect(await derived(to)).toEqual(kept);
      const ids = (await rows<{ id: number }>(to, 'SELECT id FROM patients ORDER BY id')).map((x) => Number(x.id));
      expect(ids).toEqual(patientIds);
      expect(await verifyChain(to.db)).toMatchObject({ ok: true });
      const org = (await primaryOrganization(to.db))!;
      // The search index is rebuilt on the target: the same answers as on SQLite.
      for (const q of ['suni', 'सुनी', 'jose', '98765 43210', 'ferna']) {
        const page = { page: 1, limit: 20, search: q } as const;
        const there = (await listPatients(to.db, org.id, page)).patients.map((p) => p.id);
        const here = (await listPatients(from.db, org.id, page)).patients.map((p) => p.id);
        expect(there, q).toEqual(here);
        expect(there.length, q).toBeGreaterThan(0);
      }
      // New rows on the copy continue after the copied ids.
      const p = await createPatient(to.db, systemActor(org.id), {
        first_name: 'After',
        last_name: 'Copy',
        date_of_birth: '1990-01-01',
        gender: 'Male',
      });
      expect(p.id).toBeGreaterThan(Math.max(...patientIds));
    } finally {
      await from.close();
      await to.close();
    }

    // The lab on PostgreSQL signs in: its users came across with their password hashes.
    const users = await lims(['--data-dir', tempDir(), '--database-url', url, 'user', 'list', '--format', 'csv']);
    expect(users.code, users.stderr).toBe(0);
    expect(users.stdout).toContain(ADMIN.email);
  });

  it("marks a busy lab's days stale on PostgreSQL: the rollups rebuilt there are the rows SQLite's give", async () => {
    // The bench's generated lab, small: payments and refunds, line and bill discounts, cancelled
    // bills, referring doctors, rejected samples, results verified over hours and days.
    const year = await ensureReportYear(tempDir(), () => undefined, 40, 12);
    const url = await freshPostgresUrl({ empty: true });
    const r = await lims(['--data-dir', tempDir(), 'db', 'copy', '--from', `sqlite:${year.file}`, '--to', url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('report rollups');
    const from = await openDatabaseAt(parseDatabaseUrl(`sqlite:${year.file}`));
    const to = await openDatabaseAt(parseDatabaseUrl(url), { listen: false });
    try {
      const kept = await derived(from);
      // Every table has rows to compare, and the data has what makes them differ from a plain sum.
      for (let k = 0; k < kept.length - 2; k += 2) expect(kept[k + 1], String(kept[k])).not.toHaveLength(0);
      const has = async (q: string) => Number((await rows<{ n: number }>(from, q))[0]!.n);
      expect(await has("SELECT count(*) AS n FROM payments WHERE kind = 'refund'")).toBeGreaterThan(0);
      expect(await has('SELECT count(*) AS n FROM bills WHERE cancelled_at IS NOT NULL')).toBeGreaterThan(0);
      expect(await has("SELECT count(*) AS n FROM samples WHERE status = 'rejected'")).toBeGreaterThan(0);
      expect(await has('SELECT count(*) AS n FROM bills WHERE discount_amount_paise > 0')).toBeGreaterThan(0);
      expect(await derived(to)).toEqual(kept);
      // The triggers are on again: the copy's lab marks its written days stale from here on.
      const off = await rows<{ n: number }>(
        to,
        "SELECT count(*) AS n FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'",
      );
      expect(Number(off[0]!.n)).toBe(0);
      const org = (await primaryOrganization(to.db))!;
      const before = await rows<{ n: number }>(to, 'SELECT count(*) AS n FROM rollup_stale');
      const patient = await createPatient(to.db, systemActor(org.id), {
        first_name: 'After',
        last_name: 'Copy',
        date_of_birth: '1990-01-01',
        gender: 'Male',
      });
      const test = await to.db
        .selectFrom('tests')
        .select('id')
        .where('status', '=', 'active')
        .executeTakeFirstOrThrow();
      await createBill(
        to.db,
        systemActor(org.id),
        billCreateSchema.parse({ patient_id: patient.id, items: [{ item_type: 'test', item_id: test.id }] }),
      );
      const after = await rows<{ n: number }>(to, 'SELECT count(*) AS n FROM rollup_stale');
      expect(Number(after[0]!.n)).toBeGreaterThan(Number(before[0]!.n));
    } finally {
      await from.close();
      await to.close();
    }
  });

  it('copies back from PostgreSQL into a new SQLite file', async () => {
    const url = await freshPostgresUrl({ empty: true });
    expect((await onSqlite(['db', 'copy', '--to', url])).code).toBe(0);
    const back = `sqlite:${join(tempDir(), 'back.db')}`;
    const r = await lims(['--data-dir', tempDir(), 'db', 'copy', '--from', url, '--to', back]);
    expect(r.code, r.stderr).toBe(0);
    const a = await openDatabaseAt(parseDatabaseUrl(sqliteUrl));
    const b = await openDatabaseAt(parseDatabaseUrl(back));
    try {
      expect(await counts(b)).toEqual(await counts(a));
      expect(await verifyChain(b.db)).toMatchObject({ ok: true });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses a target that holds anything, the same database twice, and a bad URL', async () => {
    const url = await freshPostgresUrl({ empty: true });
    expect((await onSqlite(['db', 'copy', '--to', url])).code).toBe(0);
    const again = await onSqlite(['db', 'copy', '--to', url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /the target is not empty \(table \w+ has rows\): copy only into a new, empty database/,
    );

    const same = await onSqlite(['db', 'copy', '--to', sqliteUrl]);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--from and --to are the same database');

    const bad = await onSqlite(['db', 'copy', '--to', 'mysql://x@y/z']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--to mysql://x@y/z');

    const none = await onSqlite(['db', 'copy']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--to URL');
  });
});
