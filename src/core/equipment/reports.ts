import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ValidationError } from '../errors.js';
import { getOrganization } from '../settings/service.js';
import { csvHeader, csvRows } from '../export/csv.js';
import { newDocument, numberPages, toBuffer } from '../pdf/document.js';
import { formatLabDate } from '../pdf/format.js';
import { hRule } from '../pdf/blocks.js';
import { labDay } from './service.js';
import { servicesAfter, type ServiceRow } from './service-repository.js';
import { formatMoney } from '../../shared/money.js';
import { addDays, localDate } from '../../shared/time.js';
import {
  MAINTENANCE_REPORT_LABELS,
  type MaintenanceReport,
  type MaintenanceReportKind,
  type MaintenanceReportQuery,
} from '../../shared/schemas/equipment.js';

/**
 * Maintenance reports (Monthly, Equipment, Technician): each record counted once, on its day (the
 * day the work was done in the lab for completed work, else its due date), within from..to.
 */

const NOT_DONE = '(not yet performed)';

type Row = MaintenanceReport['rows'][number];

function emptyRow(key: string, label: string): Row {
  return { key, label, records: 0, completed: 0, open: 0, overdue: 0, cancelled: 0, cost: 0 };
}

function add(row: Row, r: ServiceRow): void {
  row.records += 1;
  if (r.status === 'completed') row.completed += 1;
  else if (r.status === 'cancelled') row.cancelled += 1;
  else row.open += 1;
  if (r.status === 'overdue') row.overdue += 1;
  row.cost = Math.round((row.cost + Number(r.cost_paise ?? 0) / 100) * 100) / 100;
}

export async function maintenanceReport(
  db: Db,
  organizationId: number,
  report: MaintenanceReportKind,
  q: MaintenanceReportQuery,
): Promise<MaintenanceReport> {
  const { today, timeZone } = await labDay(db, organizationId);
  const to = q.to ?? today;
  const from = q.from ?? `${addDays(`${to.slice(0, 8)}01`, -334).slice(0, 8)}01`;
  if (from > to) throw ValidationError.field('from', 'from must not be after to');
  const groups = new Map<string, Row>();
  const totals = emptyRow('total', 'Total');
  for (let offset = 0; ; offset += 500) {
    const page = await servicesAfter(db, organizationId, 'maintenance', offset, 500, today);
    for (const r of page) {
      const day =
        r.status === 'completed' && r.performed_at ? localDate(timeZone, new Date(r.performed_at)) : r.due_date;
      if (day < from || day > to) continue;
      const [key, label] =
        report === 'monthly'
          ? [day.slice(0, 7), day.slice(0, 7)]
          : report === 'equipment'
            ? [String(r.equipment_id), `${r.equipment_name} (${r.serial_number})`]
            : [r.performed_by ?? NOT_DONE, r.performed_by ?? NOT_DONE];
      if (!groups.has(key)) groups.set(key, emptyRow(key, label));
      add(groups.get(key)!, r);
      add(totals, r);
    }
    if (page.length < 500) break;
  }
  const rows = [...groups.values()].sort((a, b) =>
    report === 'monthly'
      ? a.key.localeCompare(b.key)
      : b.cost - a.cost || b.records - a.records || a.label.localeCompare(b.label),
  );
  return { report, from, to, rows, totals };
}

const COLUMNS = ['Records', 'Completed', 'Open', 'Overdue', 'Cancelled', 'Cost'] as const;

function firstColumn(report: MaintenanceReportKind): string {
  return report === 'monthly' ? 'Month' : report === 'equipment' ? 'Equipment' : 'Technician';
}

/** The report as CSV (UTF-8 BOM, CRLF, formula-safe cells), cost in rupees; the download is audited. */
export async function maintenanceReportCsv(
  db: Db,
  actor: Actor,
  report: MaintenanceReportKind,
  q: MaintenanceReportQuery,
) {
  const r = await maintenanceReport(db, actor.organizationId, report, q);
  const line = (x: Row) => [x.label, x.records, x.completed, x.open, x.overdue, x.cancelled, x.cost.toFixed(2)];
  const csv =
    csvHeader([firstColumn(report), ...COLUMNS.slice(0, 5), 'Cost (INR)']) +
    csvRows([...r.rows.map(line), line(r.totals)]);
  await writeAudit(db, actor, {
    action: 'export',
    entity: 'maintenance',
    entityId: null,
    newValues: { report, from: r.from, to: r.to, rows: r.rows.length, format: 'csv' },
  });
  return { csv, name: `maintenance-${report}-${r.from}-to-${r.to}` };
}

/** The report as a one-table PDF with the lab's name, the range and the totals. */
export async function maintenanceReportPdf(
  db: Db,
  organizationId: number,
  report: MaintenanceReportKind,
  q: MaintenanceReportQuery,
) {
  const r = await maintenanceReport(db, organizationId, report, q);
  const org = await getOrganization(db, organizationId);
  const title = `Maintenance report — ${MAINTENANCE_REPORT_LABELS[report]}`;
  const doc = newDocument({ title, author: org.name, size: 'A4' });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const date = (d: string) => formatLabDate(`${d}T12:00:00Z`, org.date_format, 'UTC');
  doc.font('bold').fontSize(15).text(org.name, left, 40, { width, align: 'center' });
  doc.font('bold').fontSize(12).text(title, { width, align: 'center' });
  doc
    .font('regular')
    .fontSize(9)
    .fillColor('#555555')
    .text(`${date(r.from)} to ${date(r.to)}`, { width, align: 'center' });
  doc.moveDown(1).fillColor('#000000');
  const widths = [width - 6 * 62, 62, 62, 62, 62, 62, 62];
  const heads = [firstColumn(report), ...COLUMNS];
  const money = (n: number) => formatMoney(Math.round(n * 100), org.currency);
  const drawRow = (cells: string[], bold: boolean) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const y = doc.y;
    let x = left;
    doc.font(bold ? 'bold' : 'regular').fontSize(9);
    let h = 0;
    cells.forEach((c, i) => {
      doc.text(c, x + 2, y, { width: widths[i]! - 4, align: i === 0 ? 'left' : 'right' });
      h = Math.max(h, doc.y - y);
      x += widths[i]!;
    });
    doc.y = y + h + 4;
    hRule(doc, left, doc.y - 2, width, '#cccccc', 0.5);
  };
  drawRow(heads, true);
  if (!r.rows.length) {
    doc
      .font('regular')
      .fontSize(9)
      .text('No maintenance records in this period.', left, doc.y + 4);
  }
  for (const x of r.rows)
    drawRow(
      [
        x.label,
        String(x.records),
        String(x.completed),
        String(x.open),
        String(x.overdue),
        String(x.cancelled),
        money(x.cost),
      ],
      false,
    );
  const t = r.totals;
  drawRow(
    [
      t.label,
      String(t.records),
      String(t.completed),
      String(t.open),
      String(t.overdue),
      String(t.cancelled),
      money(t.cost),
    ],
    true,
  );
  numberPages(doc, `${org.name} · ${title}`);
  return { pdf: await toBuffer(doc), name: `maintenance-${report}-${r.from}-to-${r.to}.pdf` };
}
