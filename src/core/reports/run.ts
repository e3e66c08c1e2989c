import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { ConflictError, ForbiddenError } from '../errors.js';
import { actorHasPermission } from '../users/service.js';
import type { ReportResult, ReportRunQuery } from '../../shared/schemas/reports.js';
import { REPORT_PAGE_SIZE, REPORT_PDF_MAX_ROWS } from '../../shared/reports.js';
import { formatCount } from '../../shared/count.js';
import type { ReportFile } from './files.js';
import { monthlyPdf, monthlyReport, reportFile } from './monthly.js';
import { runReport } from './service.js';

/**
 * GET /api/reports/{id} in every format: JSON (all rows, or a page of them with `page`/`limit`; a
 * limit alone is page 1, a page alone is REPORT_PAGE_SIZE rows), or a file with every row. CSV and
 * XLSX are bulk downloads and need export_data as every other export does; the PDF is the printable
 * report and does not.
 */
export async function runReportAs(
  db: Db,
  actor: Actor,
  id: string,
  q: ReportRunQuery,
): Promise<{ report: ReportResult; file?: ReportFile }> {
  const { format, page, limit, ...period } = q;
  if ((format === 'csv' || format === 'xlsx') && !(await actorHasPermission(db, actor, 'export_data')))
    throw new ForbiddenError(`Downloading a report as ${format.toUpperCase()} needs the export_data permission`);
  const paged =
    page !== undefined || limit !== undefined ? { page: page ?? 1, limit: limit ?? REPORT_PAGE_SIZE } : null;
  const report = await runReport(db, actor, id, period, format, paged);
  if (format === 'json') return { report };
  if (format === 'pdf' && report.row_count > REPORT_PDF_MAX_ROWS)
    throw new ConflictError(
      `This report has ${formatCount(report.row_count)} rows; a PDF is made for at most ${formatCount(REPORT_PDF_MAX_ROWS)}. Download it as CSV or XLSX, or choose a shorter period.`,
      'REPORT_TOO_LARGE_FOR_PDF',
    );
  return { report, file: await reportFile(db, actor.organizationId, report, format) };
}

export async function monthlyAs(db: Db, actor: Actor, month: string, format: 'json' | 'pdf') {
  if (format === 'pdf') return { file: (await monthlyPdf(db, actor, month)).file };
  return { monthly: await monthlyReport(db, actor, month) };
}
