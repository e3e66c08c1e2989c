import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { getOrganization } from '../settings/service.js';
import { revenueDaily } from './revenue.js';
import { addDays, formatLabDate, type LabDateFormat, type LabFormat } from '../../shared/time.js';
import type { BuiltInReportId, ReportFormat } from '../../shared/reports.js';
import type { MonthlyReport, ReportResult } from '../../shared/schemas/reports.js';
import { newDocument, numberPages, toBuffer } from '../pdf/document.js';
import { BUILT_IN_REPORTS } from './builtin.js';
import { buildReport, recordRun, resolvePeriod } from './service.js';
import { drawBarChart, drawReport, reportCsv, reportPdf, reportXlsx, showCell, type ReportFile } from './files.js';
import { ForbiddenError } from '../errors.js';

/**
 * The monthly management report (Comprehensive Reports, `lims report monthly`): the headline
 * figures of a calendar month of the lab and every built-in report the user may run, with their
 * charts, in one PDF. The same figures as the Reports screen, from the same code.
 */

/** The aggregate reports of the month (patient-level registers stay on the Reports screen). */
const SECTIONS: BuiltInReportId[] = [
  'daily-collection',
  'revenue-by-test',
  'discounts',
  'referrals-by-doctor',
  'workload-by-test',
  'tat-by-test',
  'rejections',
];

export function monthBounds(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const from = `${month}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return { from, to: addDays(next, -1) };
}

export async function labFormat(db: Db, organizationId: number): Promise<{ name: string; format: LabFormat }> {
  const org = await getOrganization(db, organizationId);
  return {
    name: org.name,
    format: {
      dateFormat: (org.date_format ?? 'DD/MM/YYYY') as LabDateFormat,
      timeZone: org.timezone ?? 'Asia/Kolkata',
      hour12: false,
    },
  };
}

export async function monthlyReport(db: Db, actor: Actor, month: string): Promise<MonthlyReport> {
  const { from, to } = monthBounds(month);
  const period = await resolvePeriod(db, actor.organizationId, { from, to });
  const sections: ReportResult[] = [];
  for (const id of SECTIONS) {
    try {
      sections.push(await buildReport(db, actor, id, period));
    } catch (err) {
      if (!(err instanceof ForbiddenError)) throw err; // a section this user may not see is left out
    }
  }
  if (sections.length === 0) throw new ForbiddenError('The monthly report needs view_bills or view_results');
  const get = (id: BuiltInReportId) => sections.find((s) => s.id === id);
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  const orNull = (v: unknown) => (typeof v === 'number' ? v : null);
  const figures: MonthlyReport['figures'] = [];
  const collection = get('daily-collection');
  if (collection) {
    const r = await revenueDaily(db, actor.organizationId, { from, to });
    figures.push(
      { label: 'Bills made', value: r.totals.bills, kind: 'number' },
      { label: 'Patients billed', value: r.totals.patients, kind: 'number' },
      { label: 'Collected (net of refunds)', value: r.totals.total, kind: 'money' },
      { label: 'Refunds', value: r.totals.refunds, kind: 'money' },
      { label: 'Bill discounts', value: r.totals.discounts, kind: 'money' },
      { label: 'Average bill', value: r.totals.average_bill, kind: 'money' },
    );
  }
  const revenue = get('revenue-by-test');
  if (revenue)
    figures.push({
      label: 'Billed for tests and packages (after line discounts)',
      value: n(revenue.totals?.revenue),
      kind: 'money',
    });
  const workload = get('workload-by-test');
  if (workload) figures.push({ label: 'Tests ordered', value: n(workload.totals?.ordered), kind: 'number' });
  const tat = get('tat-by-test');
  if (tat) {
    figures.push({ label: 'Median turnaround (minutes)', value: orNull(tat.totals?.median_minutes), kind: 'number' });
    figures.push({
      label: '90th percentile turnaround (minutes)',
      value: orNull(tat.totals?.p90_minutes),
      kind: 'number',
    });
  }
  const rej = get('rejections');
  if (rej) {
    figures.push({ label: 'Samples', value: n(rej.totals?.samples), kind: 'number' });
    figures.push({ label: 'Sample rejection rate', value: n(rej.totals?.percent_of_samples), kind: 'percent' });
  }
  return { month, from, to, figures, sections };
}

/** The monthly report as one PDF: figures, then each section with its chart and table. */
export async function monthlyPdf(
  db: Db,
  actor: Actor,
  month: string,
): Promise<{ report: MonthlyReport; file: ReportFile }> {
  const report = await monthlyReport(db, actor, month);
  const lab = await labFormat(db, actor.organizationId);
  const doc = newDocument({ title: `Monthly management report ${month}`, size: 'A4' });
  doc.font('bold').fontSize(16).text(lab.name);
  doc.font('regular').fontSize(12).text(`Monthly management report: ${month}`);
  doc
    .fontSize(8.5)
    .fillColor('#444444')
    .text(
      `${formatLabDate(report.from, lab.format)} to ${formatLabDate(report.to, lab.format)}, the lab's calendar days (${lab.format.timeZone}). Money in rupees.`,
    );
  doc.fillColor('#111111').moveDown(0.8);
  const x0 = doc.page.margins.left;
  for (const f of report.figures) {
    const y = doc.y;
    doc.font('regular').fontSize(9.5).text(f.label, x0, y, { width: 330 });
    doc.font('bold').text(f.value === null ? '—' : showCell(f.value, { kind: f.kind }, lab.format), x0 + 330, y, {
      width: 180,
      align: 'right',
    });
    doc.y = Math.max(doc.y, y + 14);
  }
  doc.x = x0;
  doc.moveDown(0.8);
  const collection = report.sections.find((s) => s.id === 'daily-collection');
  if (collection?.chart) {
    drawBarChart(
      doc,
      { ...collection.chart, points: collection.chart.points.map((p) => ({ ...p, label: p.label.slice(5) })) },
      lab.format,
      31,
    );
  }
  for (const s of report.sections) {
    doc.addPage();
    drawReport(doc, s, lab.format);
  }
  numberPages(doc, `${lab.name} · monthly management report ${month}`);
  await recordRun(
    db,
    actor,
    {
      id: 'monthly',
      title: 'Monthly management report',
      type: 'financial',
      from: report.from,
      to: report.to,
      generated_at: '',
      columns: [],
      rows: report.figures.map(() => ({})),
      row_count: report.figures.length,
      page: null,
      totals: null,
      chart: null,
      notes: [],
    },
    'pdf',
    lab.format.timeZone,
  );
  return { report, file: { body: await toBuffer(doc), type: 'application/pdf', name: `monthly-report-${month}.pdf` } };
}

/** A report run as a file of the asked format. */
export async function reportFile(
  db: Db,
  organizationId: number,
  r: ReportResult,
  format: Exclude<ReportFormat, 'json'>,
): Promise<ReportFile> {
  if (format === 'csv') return reportCsv(r);
  if (format === 'xlsx') return reportXlsx(r);
  return reportPdf(r, await labFormat(db, organizationId));
}

export const MONTHLY_SECTIONS = SECTIONS;
export const ALL_BUILT_IN = BUILT_IN_REPORTS.map((r) => r.id);
