import { sql, type Expression, type SqlBool } from 'kysely';
import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import { fullName, labRows, resultsWithSampleAndTest, samplesWithPatient } from '../db/joins.js';
import type { LabReportStatus } from '../../shared/schemas/lab-reports.js';
import type { ReportSettingsTable, ReportTemplatesTable } from './tables.js';
import { verifierName } from '../../shared/schemas/results.js';
import { labTable, labUpdate } from '../db/lab-tables.js';
import { onPage, type RowsPage } from '../db/paging.js';

/**
 * Every query of Lab Reports. A report is a sample (docs/decisions.md "Lab Reports"): its status is
 * computed in SQL from the counts of its ordered tests and results, so the status filter, the paging
 * and the summary agree.
 */

export interface RegisterFilter {
  search?: string;
  status?: LabReportStatus;
  /** UTC range of the sample's collection time (its registration time while not collected). */
  fromUtc?: string;
  toUtc?: string;
  criticalUncalled?: boolean;
}

const ENTERED = sql.raw(`('completed','verified')`);

/** One row per sample with the counts its status is computed from. */
function counted(db: Db, organizationId: number) {
  return samplesWithPatient(db, organizationId).select([
    's.id',
    's.sample_code',
    's.barcode',
    's.status as sample_status',
    's.patient_id',
    's.created_at',
    's.collection_date',
    's.reported_at',
    'p.first_name',
    'p.last_name',
    'p.patient_code',
    // The list's day: collection (else registration while not collected), as its From/To filter reads.
    sql<string>`coalesce(s.collection_date, s.created_at)`.as('listed_at'),
    sql<number>`(SELECT count(*) FROM sample_tests st WHERE st.sample_id = s.id)`.as('ordered'),
    sql<number>`(SELECT count(*) FROM test_results r WHERE r.sample_id = s.id AND r.status IN ${ENTERED})`.as(
      'entered',
    ),
    sql<number>`(SELECT count(*) FROM test_results r WHERE r.sample_id = s.id AND r.status = 'verified')`.as(
      'verified',
    ),
    sql<number>`(SELECT count(*) FROM test_results r WHERE r.sample_id = s.id AND r.is_critical = 1 AND r.status IN ${ENTERED})`.as(
      'critical',
    ),
    sql<number>`(SELECT count(*) FROM test_results r WHERE r.sample_id = s.id AND r.is_critical = 1 AND r.status IN ${ENTERED}
        AND NOT EXISTS (SELECT 1 FROM critical_calls c WHERE c.result_id = r.id))`.as('critical_uncalled'),
  ]);
}

const STATUS_SQL = sql<LabReportStatus>`CASE
  WHEN x.sample_status = 'rejected' THEN 'cancelled'
  WHEN x.entered = 0 THEN 'draft'
  WHEN x.entered < x.ordered THEN 'in_progress'
  WHEN x.verified < x.entered THEN 'pending_review'
  ELSE 'completed' END`;

function register(db: Db, organizationId: number, f: RegisterFilter) {
  let inner = counted(db, organizationId);
  if (f.search) {
    const s = `%${f.search.toLowerCase()}%`;
    inner = inner.where((eb) =>
      eb.or([
        eb(sql`lower(p.first_name || ' ' || p.last_name)`, 'like', s),
        eb(sql`lower(p.patient_code)`, 'like', s),
        eb(sql`lower(s.sample_code)`, 'like', s),
        eb(sql`lower(coalesce(s.barcode, ''))`, 'like', s),
      ]),
    );
  }
  if (f.fromUtc) inner = inner.where(sql`coalesce(s.collection_date, s.created_at)`, '>=', f.fromUtc);
  if (f.toUtc) inner = inner.where(sql`coalesce(s.collection_date, s.created_at)`, '<', f.toUtc);
  let q = db.selectFrom(inner.as('x')).selectAll('x').select(STATUS_SQL.as('status'));
  if (f.status) q = q.where(sql<SqlBool>`${STATUS_SQL} = ${f.status}` as Expression<SqlBool>);
  if (f.criticalUncalled) q = q.where('x.critical_uncalled', '>', 0);
  return q;
}

export type RegisterRow = Awaited<ReturnType<ReturnType<typeof register>['execute']>>[number];

export async function registerPage(
  db: Db,
  organizationId: number,
  f: RegisterFilter,
  page: number,
  limit: number,
): Promise<RowsPage<RegisterRow>> {
  const base = register(db, organizationId, f);
  const [count, rows] = await Promise.all([
    db
      .selectFrom(base.as('y'))
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
    base.orderBy('x.listed_at', 'desc').orderBy('x.id', 'desc').$call(onPage({ page, limit })).execute(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Reports per status, and those with critical values (all of them, and those not telephoned yet). */
export async function statusCounts(db: Db, organizationId: number) {
  const base = register(db, organizationId, {});
  return db
    .selectFrom(base.as('y'))
    .select([
      'y.status',
      sql<number>`count(*)`.as('n'),
      sql<number>`sum(CASE WHEN y.critical > 0 THEN 1 ELSE 0 END)`.as('critical'),
      sql<number>`sum(CASE WHEN y.critical_uncalled > 0 THEN 1 ELSE 0 END)`.as('uncalled'),
    ])
    .groupBy('y.status')
    .execute();
}

/** Reports completed (released) in the UTC range. */
export async function completedBetween(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  const r = await labTable(db, 'samples', organizationId)
    .select(sql<number>`count(*)`.as('n'))
    .where('reported_at', '>=', fromUtc)
    .where('reported_at', '<', toUtc)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The ordered tests of some samples, in order, with their category. */
export function testsOfSamples(db: Db, sampleIds: number[]) {
  if (!sampleIds.length) return Promise.resolve([]);
  return db
    .selectFrom('sample_tests as st')
    .innerJoin('tests as t', 't.id', 'st.test_id')
    .select(['st.sample_id', 't.name', 't.category'])
    .where('st.sample_id', 'in', sampleIds)
    .orderBy('st.sample_id')
    .orderBy('st.position')
    .execute();
}

/** Entered results of some samples: who entered and who verified each, when. */
export function resultPeopleOfSamples(db: Db, sampleIds: number[]) {
  if (!sampleIds.length) return Promise.resolve([]);
  return db
    .selectFrom('test_results as r')
    .leftJoin('users as tu', 'tu.id', 'r.technician_id')
    .leftJoin('users as vu', 'vu.id', 'r.verified_by')
    .select([
      'r.sample_id',
      'r.status',
      'r.entered_at',
      'r.verified_at',
      fullName('tu').as('technician_name'),
      fullName('vu').as('verifier_name'),
      'r.previous_verifier',
      'r.autoverified_by',
    ])
    .where('r.sample_id', 'in', sampleIds)
    .where('r.status', 'in', ['completed', 'verified'])
    .orderBy('r.id')
    .execute();
}

// ---- analytics ----

/**
 * Samples registered in the UTC range: entered in lims then (created_at), whenever they were or will
 * be collected. "Registered" means this on every screen (SAMPLE_REGISTERED_DEFINITION).
 */
export function samplesBetween(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  return labTable(db, 'samples', organizationId)
    .select(['created_at as at', 'status', 'collection_date', 'reported_at'])
    .where('created_at', '>=', fromUtc)
    .where('created_at', '<', toUtc)
    .execute();
}

/** Reports released in the UTC range with their collection time. */
export function reportedBetween(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  return labTable(db, 'samples', organizationId)
    .select(['collection_date', 'reported_at'])
    .where('reported_at', '>=', fromUtc)
    .where('reported_at', '<', toUtc)
    .execute();
}

/** Results verified in the UTC range: category, collection time, amended or not. */
export function verifiedBetween(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  return resultsWithSampleAndTest(db, organizationId)
    .select(['t.category', 's.collection_date', 'r.verified_at', 'r.amended'])
    .where('r.status', '=', 'verified')
    .where('r.verified_at', '>=', fromUtc)
    .where('r.verified_at', '<', toUtc)
    .execute();
}

/** Results entered in the UTC range: status, critical, entry time and the first logged call. */
export function enteredBetween(db: Db, organizationId: number, fromUtc: string, toUtc: string) {
  return db
    .selectFrom('test_results as r')
    .select([
      'r.status',
      'r.is_critical',
      'r.entered_at',
      sql<string | null>`(SELECT min(c.called_at) FROM critical_calls c WHERE c.result_id = r.id)`.as('called_at'),
    ])
    .where('r.organization_id', '=', organizationId)
    .where('r.entered_at', '>=', fromUtc)
    .where('r.entered_at', '<', toUtc)
    .execute();
}

export interface ActivityRow {
  kind: 'verified' | 'amended' | 'sent_back' | 'called';
  at: string;
  by: string | null;
  sample_code: string;
  test_name: string;
  sample_id: number;
}

/** The latest verifications, amendments, send-backs and logged calls (n of each, newest first). */
export async function recentActivity(db: Db, organizationId: number, n: number): Promise<ActivityRow[]> {
  const base = () => resultsWithSampleAndTest(db, organizationId);
  const [verified, amended, sentBack, called] = await Promise.all([
    base()
      .leftJoin('users as u', 'u.id', 'r.verified_by')
      .select([
        sql<string>`r.verified_at`.as('at'),
        fullName('u').as('by'),
        'r.previous_verifier',
        'r.autoverified_by',
        's.sample_code',
        't.name as test_name',
        's.id as sample_id',
      ])
      .where('r.status', '=', 'verified')
      .where('r.verified_at', 'is not', null)
      .orderBy('r.verified_at', 'desc')
      .limit(n)
      .execute(),
    base()
      .innerJoin('result_amendments as a', 'a.result_id', 'r.id')
      .leftJoin('users as u', 'u.id', 'a.amended_by')
      .select([
        sql<string>`a.amended_at`.as('at'),
        fullName('u').as('by'),
        's.sample_code',
        't.name as test_name',
        's.id as sample_id',
      ])
      .orderBy('a.amended_at', 'desc')
      .limit(n)
      .execute(),
    base()
      .leftJoin('users as u', 'u.id', 'r.verified_by')
      .select([
        sql<string>`r.updated_at`.as('at'),
        fullName('u').as('by'),
        's.sample_code',
        't.name as test_name',
        's.id as sample_id',
      ])
      .where('r.status', '=', 'rejected')
      .orderBy('r.updated_at', 'desc')
      .limit(n)
      .execute(),
    base()
      .innerJoin('critical_calls as c', 'c.result_id', 'r.id')
      .select([
        sql<string>`c.called_at`.as('at'),
        sql<string | null>`c.recorded_by_name`.as('by'),
        's.sample_code',
        't.name as test_name',
        's.id as sample_id',
      ])
      .orderBy('c.called_at', 'desc')
      .limit(n)
      .execute(),
  ]);
  const tag = <K extends ActivityRow['kind']>(kind: K, rows: Omit<ActivityRow, 'kind'>[]) =>
    rows.map((r) => ({ ...r, kind, sample_id: Number(r.sample_id) }));
  return [
    // Imported as verified: the previous system's verifier is who verified it, not the importer.
    ...tag(
      'verified',
      verified.map(({ previous_verifier, autoverified_by, ...r }) => ({
        ...r,
        by: verifierName(r.by, previous_verifier, autoverified_by),
      })),
    ),
    ...tag('amended', amended),
    ...tag('sent_back', sentBack),
    ...tag('called', called),
  ]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, n);
}

// ---- templates and settings ----

export function templateRows(db: Db, organizationId: number) {
  return labRows(db, 'report_templates', organizationId).execute();
}

export function templateRow(db: Db, organizationId: number, department: string) {
  return labRows(db, 'report_templates', organizationId).where('department', '=', department).executeTakeFirst();
}

export async function insertTemplateRow(db: Db, values: Insertable<ReportTemplatesTable>): Promise<void> {
  await db.insertInto('report_templates').values(values).execute();
}

export async function updateTemplateRow(
  db: Db,
  organizationId: number,
  department: string,
  patch: Updateable<ReportTemplatesTable>,
): Promise<void> {
  await labUpdate(db, 'report_templates', organizationId).set(patch).where('department', '=', department).execute();
}

export function settingsRow(db: Db, organizationId: number) {
  return labRows(db, 'report_settings', organizationId).executeTakeFirst();
}

export async function insertSettingsRow(db: Db, values: Insertable<ReportSettingsTable>): Promise<void> {
  await db
    .insertInto('report_settings')
    .values(values)
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
}

export async function updateSettingsRow(
  db: Db,
  organizationId: number,
  patch: Updateable<ReportSettingsTable>,
): Promise<void> {
  await labUpdate(db, 'report_settings', organizationId).set(patch).execute();
}
