import { sql, type Insertable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { CustomReportsTable, ReportRunsTable } from './tables.js';
import { isIsoDateText } from '../db/dialect.js';
import { labRows, resultsWithPatient } from '../db/joins.js';
import { deleteLabRow } from '../db/lab-row.js';
import { onPage } from '../db/paging.js';

/**
 * The queries behind the built-in reports. Reports read across features (bills,
 * payments, samples, results), read-only, so their aggregations live here in one place that the
 * Reports, Comprehensive Reports, Analytics and dashboards reuse. Every query is filtered by
 * organization_id; periods are given as the UTC instants of the lab days' bounds [fromUtc, toUtc).
 */

export interface Window {
  organizationId: number;
  fromUtc: string;
  toUtc: string;
}

export const fullName = (alias: string) =>
  sql<string>`TRIM(COALESCE(${sql.ref(`${alias}.first_name`)}, '') || ' ' || COALESCE(${sql.ref(`${alias}.last_name`)}, ''))`;

/** Patients registered in the window, all of them or one page (page from 1), in registration order. */
export function patientsRegistered(db: Db, w: Window, page: { page: number; limit: number } | null = null) {
  const q = db
    .selectFrom('patients as p')
    .select([
      'p.id',
      'p.patient_code',
      'p.gender',
      'p.date_of_birth',
      'p.city',
      'p.created_at',
      fullName('p').as('name'),
    ])
    .where('p.organization_id', '=', w.organizationId)
    .where('p.created_at', '>=', w.fromUtc)
    .where('p.created_at', '<', w.toUtc)
    .orderBy('p.created_at')
    .orderBy('p.id');
  return (page ? q.$call(onPage(page)) : q).execute();
}

/**
 * The register's demographics of the patients registered in the window from the index of (lab,
 * registration, gender, date of birth), nothing grouped or sorted: how many, by gender, and by age
 * group on `day` as ageOn counts it (0-17, 18-39, 40-59, 60+, or unknown when the date of birth is
 * not YYYY-MM-DD). An age of at least A on `day` is a date of birth on or before the same month and
 * day A years earlier, compared as text (fixed-width digits sort like the dates). One pass counts
 * every row against the three cut-offs; a second counts the rows whose date of birth is not
 * YYYY-MM-DD (the pattern test is the costly part, so it runs once per row) and takes them out.
 */
export async function patientDemographics(db: Db, w: Window, day: string) {
  // On PostgreSQL migration 36's partial index holds the rows that fail it (the odd pass reads only those).
  const pattern = isIsoDateText(db, 'p.date_of_birth');
  const dayOk = /^\d{4}-\d{2}-\d{2}$/.test(day);
  // With no valid day, ageOn gives no age: every row is unknown (the cut-offs count nothing).
  const born = (years: number) =>
    dayOk ? `${String(Number(day.slice(0, 4)) - years).padStart(4, '0')}${day.slice(4)}` : '';
  const count = (cond: ReturnType<typeof sql>) => sql<number>`SUM(CASE WHEN ${cond} THEN 1 ELSE 0 END)`;
  const figures = (rows: ReturnType<typeof db.selectFrom<'patients as p'>>) =>
    rows
      .select([
        sql<number>`COUNT(*)`.as('patients'),
        count(sql`p.gender = 'Male'`).as('male'),
        count(sql`p.gender = 'Female'`).as('female'),
        count(sql`p.gender = 'Other'`).as('other'),
        count(sql`p.date_of_birth > ${born(18)}`).as('under18'),
        count(sql`p.date_of_birth > ${born(40)}`).as('under40'),
        count(sql`p.date_of_birth > ${born(60)}`).as('under60'),
      ])
      .where('p.organization_id', '=', w.organizationId)
      .where('p.created_at', '>=', w.fromUtc)
      .where('p.created_at', '<', w.toUtc)
      .executeTakeFirstOrThrow();
  const all = await figures(db.selectFrom('patients as p'));
  const odd = await figures(db.selectFrom('patients as p').where(sql<boolean>`NOT (${pattern})`));
  const n = (v: unknown) => Number(v ?? 0);
  const known = (k: keyof typeof all) => (dayOk ? n(all[k]) - n(odd[k]) : 0);
  const patients = n(all.patients);
  const bands = {
    '0-17': known('under18'),
    '18-39': known('under40') - known('under18'),
    '40-59': known('under60') - known('under40'),
    '60+': known('patients') - known('under60'),
  };
  return {
    patients,
    male: n(all.male),
    female: n(all.female),
    other: n(all.other),
    bands: { ...bands, Unknown: patients - Object.values(bands).reduce((a, b) => a + b, 0) },
  };
}

/** Samples whose collection (or, never collected, creation) falls in the window. */
const sampleDay = sql<string>`COALESCE(s.collection_date, s.created_at)`;

/** Tests ordered on samples of the window, per test: ordered, resulted, verified. */
export function workloadByTest(db: Db, w: Window) {
  return db
    .selectFrom('sample_tests as st')
    .innerJoin('samples as s', 's.id', 'st.sample_id')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .leftJoin('test_results as r', (j) =>
      j.onRef('r.sample_id', '=', 'st.sample_id').onRef('r.test_id', '=', 'st.test_id'),
    )
    .select([
      'st.test_id',
      sql<string>`MAX(t.name)`.as('test_name'),
      sql<string | null>`MAX(t.category)`.as('category'),
      sql<number>`COUNT(*)`.as('ordered'),
      sql<number>`SUM(CASE WHEN r.result_value IS NOT NULL THEN 1 ELSE 0 END)`.as('resulted'),
      sql<number>`SUM(CASE WHEN r.status = 'verified' THEN 1 ELSE 0 END)`.as('verified'),
      sql<number>`SUM(CASE WHEN s.status = 'rejected' THEN 1 ELSE 0 END)`.as('rejected'),
    ])
    .where('s.organization_id', '=', w.organizationId)
    .where(sampleDay, '>=', w.fromUtc)
    .where(sampleDay, '<', w.toUtc)
    .groupBy('st.test_id')
    .execute();
}

/** Samples of the window: how many, and the rejected ones per reason. */
export async function rejectionCounts(db: Db, w: Window) {
  const base = db
    .selectFrom('samples as s')
    .where('s.organization_id', '=', w.organizationId)
    .where(sampleDay, '>=', w.fromUtc)
    .where(sampleDay, '<', w.toUtc);
  const [total, reasons] = await Promise.all([
    base.select(sql<number>`COUNT(*)`.as('n')).executeTakeFirstOrThrow(),
    base
      .select([
        sql<string>`COALESCE(NULLIF(TRIM(s.rejection_reason), ''), 'No reason given')`.as('reason'),
        sql<number>`COUNT(*)`.as('n'),
      ])
      .where('s.status', '=', 'rejected')
      .groupBy(sql`1`)
      .execute(),
  ]);
  return { samples: Number(total.n), reasons: reasons.map((r) => ({ reason: r.reason, n: Number(r.n) })) };
}

/** The first call logged for each critical result of the lab. */
const firstCalls = (db: Db, organizationId: number) =>
  db
    .selectFrom('critical_calls')
    .select(['result_id', sql<string>`MIN(called_at)`.as('called_at')])
    .where('organization_id', '=', organizationId)
    .groupBy('result_id')
    .as('c');

/**
 * When each critical result entered in the window was entered and first called: the figures of
 * criticalResults' rows, without the sample, patient and test each row names.
 */
export function criticalCallTimes(db: Db, w: Window) {
  return db
    .selectFrom('test_results as r')
    .leftJoin(firstCalls(db, w.organizationId), 'c.result_id', 'r.id')
    .select(['r.entered_at', 'c.called_at'])
    .where('r.organization_id', '=', w.organizationId)
    .where(sql<boolean>`r.is_critical = 1`)
    .where('r.entered_at', '>=', w.fromUtc)
    .where('r.entered_at', '<', w.toUtc)
    .execute();
}

/** Critical results entered in the window with the first call logged for each, all of them or one page (page from 1). */
export function criticalResults(db: Db, w: Window, page: { page: number; limit: number } | null = null) {
  // The first call of each row by its own (result_id) index range: joined to every first call of the
  // lab, PostgreSQL's plan for a page compared each row with all of them (4,000 comparisons a row).
  const firstCall = sql<string | null>`(SELECT MIN(c.called_at) FROM critical_calls c
    WHERE c.result_id = r.id AND c.organization_id = ${w.organizationId})`;
  const q = resultsWithPatient(db, w.organizationId)
    .select([
      'r.id',
      's.sample_code',
      'p.patient_code',
      't.name as test_name',
      'r.result_value',
      'r.unit',
      'r.entered_at',
      'r.verified_at',
      firstCall.as('called_at'),
    ])
    // A literal, so the planner can use the partial index of critical results (migration 30).
    .where(sql<boolean>`r.is_critical = 1`)
    .where('r.entered_at', '>=', w.fromUtc)
    .where('r.entered_at', '<', w.toUtc)
    .orderBy('r.entered_at')
    .orderBy('r.id');
  return (page ? q.$call(onPage(page)) : q).execute();
}

/** The Data Summary of the Reports screen: what the lab holds. */
export async function dataSummary(db: Db, organizationId: number) {
  const count = async (table: 'patients' | 'samples' | 'test_results' | 'bills') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select(sql<number>`COUNT(*)`.as('n'))
          .where('organization_id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const doctors = db
    .selectFrom('users')
    .select(sql<number>`COUNT(*)`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'doctor')
    .executeTakeFirstOrThrow();
  const [patients, samples, results, bills, d] = await Promise.all([
    count('patients'),
    count('samples'),
    count('test_results'),
    count('bills'),
    doctors,
  ]);
  return { patients, doctors: Number(d.n), samples, test_results: results, bills };
}

// Runs and custom reports ----------------------------------------------------------------

export function insertRun(db: Db, v: Insertable<ReportRunsTable>) {
  return db.insertInto('report_runs').values(v).execute();
}

export function runStats(db: Db, organizationId: number) {
  return db
    .selectFrom('report_runs')
    .select(['report_id', sql<number>`COUNT(*)`.as('n'), sql<string>`MAX(created_at)`.as('last_at')])
    .where('organization_id', '=', organizationId)
    .groupBy('report_id')
    .execute();
}

export async function runsOnDay(db: Db, organizationId: number, labDate: string): Promise<number> {
  const r = await db
    .selectFrom('report_runs')
    .select(sql<number>`COUNT(*)`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('lab_date', '=', labDate)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function listCustomRows(db: Db, organizationId: number) {
  return labRows(db, 'custom_reports', organizationId).orderBy('name').execute();
}

export function findCustomRow(db: Db, organizationId: number, id: number) {
  return labRows(db, 'custom_reports', organizationId).where('id', '=', id).executeTakeFirst();
}

export function insertCustomRow(db: Db, v: Insertable<CustomReportsTable>) {
  return db.insertInto('custom_reports').values(v).returningAll().executeTakeFirstOrThrow();
}

export function deleteCustomRow(db: Db, organizationId: number, id: number) {
  return deleteLabRow(db, 'custom_reports', organizationId, id);
}
