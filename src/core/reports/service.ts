import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ForbiddenError, NotFoundError } from '../errors.js';
import { actorHasPermission } from '../users/service.js';
import { resultScope } from '../results/service.js';
import { organizationTimezone } from '../settings/service.js';
import { collectionDaily } from './revenue.js';
import { ageOn } from '../../shared/age.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import {
  CUSTOM_ENTITY_DEFS,
  CUSTOM_ID,
  DEFAULT_REPORT_RANGE,
  customReportId,
  type CustomEntity,
  type ReportFormat,
} from '../../shared/reports.js';
import type {
  CustomReport,
  CustomReportCreate,
  ReportCatalogue,
  ReportCatalogueQuery,
  ReportEntry,
  ReportPage,
  ReportPeriodQuery,
  ReportResult,
} from '../../shared/schemas/reports.js';
import { BUILT_IN_REPORTS, builtInReport, type BuiltInReport, type Row } from './builtin.js';
import { customRows } from './custom-repository.js';
import { refreshRollups } from './rollups/days.js';
import { onSnapshot } from '../db/dialect.js';
import {
  dataSummary,
  deleteCustomRow,
  findCustomRow,
  insertCustomRow,
  insertRun,
  listCustomRows,
  runStats,
  runsOnDay,
  type Window,
} from './repository.js';

/** The most rows a custom report returns (a larger register is an export: lims export). */
export const CUSTOM_ROW_LIMIT = 5000;

export interface Period {
  from: string;
  to: string;
  timeZone: string;
  window: Window;
}

/** from/to as given; else the last `range` (30) lab days up to today. */
export async function resolvePeriod(
  db: Db,
  organizationId: number,
  q: ReportPeriodQuery,
  defaultDays = DEFAULT_REPORT_RANGE,
): Promise<Period> {
  const timeZone = await organizationTimezone(db, organizationId);
  const today = localDate(timeZone);
  const to = q.to ?? (q.from && q.from > today ? q.from : today);
  const from = q.from ?? addDays(to, -((q.range ?? defaultDays) - 1));
  return {
    from,
    to,
    timeZone,
    window: {
      organizationId,
      fromUtc: startOfLocalDayUtc(timeZone, from).toISOString(),
      toUtc: startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString(),
    },
  };
}

/** Why this actor may not run this built-in report, or null. */
async function refusal(db: Db, actor: Actor, r: BuiltInReport): Promise<string | null> {
  for (const p of r.needs) if (!(await actorHasPermission(db, actor, p))) return `${r.name} needs the ${p} permission`;
  if (!r.aggregate && (await resultScope(db, actor)).doctorId)
    return `${r.name} lists patients of the whole lab; a doctor sees only their own patients`;
  return null;
}

const ENTITY_NEEDS: Record<CustomEntity, 'view_patients' | 'view_bills' | 'view_samples' | 'view_results'> = {
  patients: 'view_patients',
  bills: 'view_bills',
  samples: 'view_samples',
  results: 'view_results',
};

async function customRefusal(db: Db, actor: Actor, entity: CustomEntity): Promise<string | null> {
  if (!(await actorHasPermission(db, actor, ENTITY_NEEDS[entity])))
    return `A report of ${entity} needs the ${ENTITY_NEEDS[entity]} permission`;
  if ((await resultScope(db, actor)).doctorId)
    return 'Custom reports list patients of the whole lab; a doctor sees only their own patients';
  return null;
}

function toCustom(row: NonNullable<Awaited<ReturnType<typeof findCustomRow>>>): CustomReport {
  return {
    id: customReportId(Number(row.id)),
    name: row.name,
    description: row.description,
    entity: row.entity as CustomEntity,
    columns: JSON.parse(row.columns) as string[],
    filters: JSON.parse(row.filters) as Record<string, string>,
    range_days: Number(row.range_days),
    created_at: row.created_at,
  };
}

function customDescription(c: CustomReport): string {
  const def = CUSTOM_ENTITY_DEFS[c.entity];
  const filters = Object.entries(c.filters).map(([k, v]) => `${def.filters[k]?.label ?? k} ${v}`);
  return (
    c.description ??
    `${def.label}${filters.length ? ` (${filters.join(', ')})` : ''}: ${c.columns.map((k) => def.columns[k]?.label ?? k).join(', ')}`
  );
}

/** GET /api/reports: the reports this user may run, with their runs, the cards and the data summary. */
export async function reportCatalogue(db: Db, actor: Actor, q: ReportCatalogueQuery): Promise<ReportCatalogue> {
  const orgId = actor.organizationId;
  const period = await resolvePeriod(db, orgId, q);
  const stats = new Map((await runStats(db, orgId)).map((s) => [s.report_id, s]));
  const entries: ReportEntry[] = [];
  const stat = (id: string) => ({
    last_generated: stats.get(id)?.last_at ?? null,
    count: Number(stats.get(id)?.n ?? 0),
  });
  for (const r of BUILT_IN_REPORTS) {
    if (await refusal(db, actor, r)) continue;
    entries.push({
      id: r.id,
      name: r.name,
      type: r.type,
      description: r.description,
      status: 'active',
      custom: false,
      ...stat(r.id),
    });
  }
  for (const row of await listCustomRows(db, orgId)) {
    const c = toCustom(row);
    if (await customRefusal(db, actor, c.entity)) continue;
    const type = c.entity === 'patients' ? 'patient' : c.entity === 'bills' ? 'financial' : 'laboratory';
    entries.push({
      id: c.id,
      name: c.name,
      type,
      description: customDescription(c),
      status: 'active',
      custom: true,
      ...stat(c.id),
    });
  }
  const listed = q.type ? entries.filter((e) => e.type === q.type) : entries;
  const canSeeMoney = await actorHasPermission(db, actor, 'view_bills');
  const revenue = canSeeMoney
    ? (await collectionDaily(db, orgId, { from: period.from, to: period.to })).totals.total
    : 0;
  return {
    from: period.from,
    to: period.to,
    reports: listed,
    cards: {
      total_reports: [...stats.values()].reduce((a, s) => a + Number(s.n), 0),
      generated_today: await runsOnDay(db, orgId, localDate(period.timeZone)),
      total_revenue: revenue,
      active_reports: entries.length,
    },
    data_summary: await dataSummary(db, orgId),
  };
}

/** The page of rows asked for (the rows of the whole period when no page is asked for). */
function pageOf<T>(rows: T[], page: ReportPage | null): T[] {
  return page ? rows.slice((page.page - 1) * page.limit, page.page * page.limit) : rows;
}

/**
 * Runs one report for the period, without recording it (the Comprehensive report and Analytics call
 * this). With a page, `rows` is that page and `row_count` the period's rows; totals and chart are
 * always the whole period's.
 */
export async function buildReport(
  db: Db,
  actor: Actor,
  id: string,
  period: Period,
  page: ReportPage | null = null,
): Promise<ReportResult> {
  const base = { from: period.from, to: period.to, generated_at: nowIso(), page };
  const builtIn = builtInReport(id);
  if (builtIn) {
    const why = await refusal(db, actor, builtIn);
    if (why) throw new ForbiddenError(why);
    // The period's stale rollup days rebuilt first, in transactions of their own: the snapshot is read-only.
    await refreshRollups(db, actor.organizationId, period.window.fromUtc, period.window.toUtc);
    const { rowCount, rows, ...b } = await onSnapshot(db, (d) =>
      builtIn.build({
        db: d,
        window: period.window,
        from: period.from,
        to: period.to,
        timeZone: period.timeZone,
        page,
      }),
    );
    // A builder that read only the page says how many rows the period has; others are sliced here.
    return rowCount === undefined
      ? { id, title: builtIn.name, type: builtIn.type, ...base, ...b, rows: pageOf(rows, page), row_count: rows.length }
      : { id, title: builtIn.name, type: builtIn.type, ...base, ...b, rows, row_count: rowCount };
  }
  const m = CUSTOM_ID.exec(id);
  const row = m ? await findCustomRow(db, actor.organizationId, Number(m[1])) : undefined;
  if (!row) throw new NotFoundError('Report', id);
  const c = toCustom(row);
  const why = await customRefusal(db, actor, c.entity);
  if (why) throw new ForbiddenError(why);
  const def = CUSTOM_ENTITY_DEFS[c.entity];
  const raw = await customRows(db, c.entity, period.window, c.filters, CUSTOM_ROW_LIMIT + 1);
  const rows: Row[] = raw.slice(0, CUSTOM_ROW_LIMIT).map((r) => {
    const out: Row = {};
    for (const k of c.columns) out[k] = customCell(k, r, period.to);
    return out;
  });
  const notes = [`${def.label} ${def.dateLabel} in the period.`];
  if (raw.length > CUSTOM_ROW_LIMIT)
    notes.push(`Only the first ${CUSTOM_ROW_LIMIT} rows are shown; narrow the period or the filters.`);
  return {
    id,
    title: c.name,
    type: c.entity === 'patients' ? 'patient' : c.entity === 'bills' ? 'financial' : 'laboratory',
    ...base,
    columns: c.columns.map((k) => ({ key: k, label: def.columns[k]!.label, kind: def.columns[k]!.kind })),
    rows: pageOf(rows, page),
    row_count: rows.length,
    totals: { rows: rows.length },
    chart: null,
    notes,
  };
}

const paise = (v: unknown) => Math.round(Number(v ?? 0)) / 100;
function customCell(key: string, r: Record<string, unknown>, to: string): string | number | null {
  switch (key) {
    case 'age':
      return typeof r.date_of_birth === 'string' ? ageOn(r.date_of_birth, to) : null;
    case 'final_amount':
      return paise(r.final_amount_paise);
    case 'discount':
      return paise(r.discount_amount_paise);
    case 'paid':
      return paise(r.paid_paise);
    case 'due':
      return r.status === 'cancelled' ? 0 : Math.max(0, paise(Number(r.final_amount_paise) - Number(r.paid_paise)));
    default: {
      const v = r[key];
      return v === undefined || v === null ? null : typeof v === 'number' ? v : String(v);
    }
  }
}

/** Records one run (and, for a file, the export in the audit trail) in one transaction. */
export async function recordRun(
  db: Db,
  actor: Actor,
  report: ReportResult,
  format: ReportFormat,
  timeZone: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertRun(trx, {
      organization_id: actor.organizationId,
      report_id: report.id,
      format,
      from_date: report.from,
      to_date: report.to,
      row_count: report.row_count,
      user_id: actor.userId,
      lab_date: localDate(timeZone),
      created_at: nowIso(),
    });
    if (format !== 'json')
      await writeAudit(trx, actor, {
        action: 'export',
        entity: 'report',
        entityId: report.id,
        newValues: { format, from: report.from, to: report.to, rows: report.row_count },
      });
  });
}

/**
 * GET /api/reports/{id}: runs and records one report. A later page of the same view (page > 1) is
 * not another run: the catalogue's counts are of reports looked at, not of pages turned.
 */
export async function runReport(
  db: Db,
  actor: Actor,
  id: string,
  q: ReportPeriodQuery,
  format: ReportFormat,
  page: ReportPage | null = null,
): Promise<ReportResult> {
  const m = CUSTOM_ID.exec(id);
  let defaultDays = DEFAULT_REPORT_RANGE;
  if (m && !q.range && !q.from && !q.to) {
    const row = await findCustomRow(db, actor.organizationId, Number(m[1]));
    if (row) defaultDays = Number(row.range_days);
  }
  const period = await resolvePeriod(db, actor.organizationId, q, defaultDays);
  const report = await buildReport(db, actor, id, period, page);
  if (!page || page.page === 1) await recordRun(db, actor, report, format, period.timeZone);
  return report;
}

/** POST /api/reports: saves a custom report to the catalogue (audited). */
export async function createCustomReport(db: Db, actor: Actor, input: CustomReportCreate): Promise<CustomReport> {
  const why = await customRefusal(db, actor, input.entity);
  if (why) throw new ForbiddenError(why);
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const row = await insertCustomRow(trx, {
      organization_id: actor.organizationId,
      name: input.name,
      description: input.description ?? null,
      entity: input.entity,
      columns: JSON.stringify(input.columns),
      filters: JSON.stringify(input.filters),
      range_days: input.range_days,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    });
    const c = toCustom(row);
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'custom_report',
      entityId: Number(row.id),
      newValues: { ...c },
    });
    return c;
  });
}

/** DELETE /api/reports/{id}: removes a saved custom report (built-in reports cannot be removed). */
export async function deleteCustomReport(db: Db, actor: Actor, id: string): Promise<void> {
  const m = CUSTOM_ID.exec(id);
  if (!m) {
    if (builtInReport(id)) throw new ForbiddenError('Built-in reports cannot be deleted');
    throw new NotFoundError('Report', id);
  }
  await db.transaction().execute(async (trx) => {
    const row = await findCustomRow(trx, actor.organizationId, Number(m[1]));
    if (!row) throw new NotFoundError('Report', id);
    await deleteCustomRow(trx, actor.organizationId, Number(m[1]));
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'custom_report',
      entityId: Number(row.id),
      oldValues: { ...toCustom(row) },
    });
  });
}

// The per-day rollups, for the screens of other features that read them (Analytics).
export { planDays, refreshRollups, type DayPlan } from './rollups/days.js';
export { billedByDoctorSummed, billedTotalsSummed, billsPerDaySummed, dayBoundsOf } from './money.js';
export { billedCategoriesRollup, billedPerDayRollup, dayRollup, workloadRollup } from './rollups/read.js';
export { turnaroundRows } from './rollups/turnaround-rows.js';
export { forEachCount } from './turnaround.js';
export { revenueAnalytics } from './revenue-analytics.js';
