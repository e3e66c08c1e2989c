import { csvHeader, csvRows } from '../export/csv.js';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { newDocument, numberPages, toBuffer } from '../pdf/document.js';
import { table } from '../pdf/table.js';
import { getOrganization } from '../settings/service.js';
import type { RevenueQuery } from '../../shared/schemas/revenue.js';
import { revenueReportRows } from './revenue.js';

/** GET /api/revenue/export: the revenue report's rows as CSV, a spreadsheet or a PDF table. */
export async function revenueExport(
  db: Db,
  actor: Actor,
  q: RevenueQuery & { format: 'csv' | 'xlsx' | 'pdf' },
): Promise<{ body: Buffer | string; type: string; name: string }> {
  const { report, header, rows } = await revenueReportRows(db, actor, q, q.format);
  const name = `revenue-${report.from}-to-${report.to}`;
  if (q.format === 'csv')
    return { body: csvHeader(header) + csvRows(rows), type: 'text/csv; charset=utf-8', name: `${name}.csv` };
  if (q.format === 'xlsx') {
    // exceljs is large: loaded only when a spreadsheet is asked for.
    const { default: Excel } = await import('exceljs');
    const wb = new Excel.Workbook();
    const ws = wb.addWorksheet('Revenue');
    ws.addRow(header).font = { bold: true };
    for (const r of rows) ws.addRow(r);
    ws.lastRow!.font = { bold: true };
    ws.columns.forEach((col, i) => {
      col.width = i === 0 ? 12 : 14;
      if (i > 0) col.numFmt = '#,##0.00';
    });
    return {
      body: Buffer.from(await wb.xlsx.writeBuffer()),
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      name: `${name}.xlsx`,
    };
  }
  const org = await getOrganization(db, actor.organizationId);
  const doc = newDocument({ title: `Revenue ${report.from} to ${report.to}`, size: 'A4' });
  doc.font('bold').fontSize(14).text(org.name);
  doc.font('regular').fontSize(11).text(`Revenue report: ${report.from} to ${report.to} (money in rupees, lab days)`);
  doc.moveDown(0.5);
  table(
    doc,
    header.map((h) => h.replace('Bank transfer', 'Bank')),
    rows.map((r) => r.map((c, i) => (typeof c === 'number' && header[i] !== 'Patients' ? c.toFixed(2) : c))),
    [52, 46, 42, 38, 38, 38, 40, 44, 40, 44, 38, 45],
  );
  numberPages(doc, `${org.name} · revenue ${report.from} to ${report.to}`);
  return { body: await toBuffer(doc), type: 'application/pdf', name: `${name}.pdf` };
}
