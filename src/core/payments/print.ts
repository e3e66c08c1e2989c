import { csvHeader, csvRows } from '../export/csv.js';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { newDocument, numberPages, toBuffer } from '../pdf/document.js';
import { getOrganization } from '../settings/service.js';
import { formatLabDateTime, formatLabDay } from '../pdf/format.js';
import { drawerDifferenceText, formatInr, rupeesToPaise } from '../../shared/money.js';
import type { Closing } from '../../shared/schemas/payments.js';
import type { RevenueQuery } from '../../shared/schemas/revenue.js';
import { getClosingById } from './closing.js';
import { revenueReportRows } from './revenue.js';

const inr = (rupees: number) => formatInr(rupeesToPaise(rupees));

/** A simple table: header row bold, then rows; a new page when the page is full. */
function table(doc: PDFKit.PDFDocument, header: string[], rows: (string | number)[][], widths: number[]): void {
  const x0 = doc.page.margins.left;
  const drawRow = (cells: (string | number)[], bold: boolean) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 30) doc.addPage();
    const y = doc.y;
    let x = x0;
    doc.font(bold ? 'bold' : 'regular').fontSize(8);
    cells.forEach((c, i) => {
      doc.text(String(c), x + 2, y, { width: widths[i]! - 4, align: i === 0 ? 'left' : 'right', lineBreak: false });
      x += widths[i]!;
    });
    doc.y = y + 14;
    doc
      .moveTo(x0, doc.y - 3)
      .lineTo(x, doc.y - 3)
      .strokeColor('#dddddd')
      .stroke();
  };
  drawRow(header, true);
  rows.forEach((r, i) => drawRow(r, i === rows.length - 1 && r[0] === 'Total'));
}

/** The cashier's closing report for the owner: figures as saved when the day was closed. */
export async function closingPdf(db: Db, actor: Actor, id: number): Promise<{ pdf: Buffer; name: string }> {
  const c: Closing = await getClosingById(db, actor, id);
  const org = await getOrganization(db, actor.organizationId);
  const doc = newDocument({ title: `Day-end closing ${c.date} ${c.user_name}`, createdAt: c.closed_at ?? undefined });
  const day = formatLabDay(c.date, org.date_format);
  doc.font('bold').fontSize(14).text(org.name);
  doc.font('regular').fontSize(11).text(`Day-end closing report: ${day}`);
  const at = c.closed_at ? formatLabDateTime(c.closed_at, org.date_format, org.timezone) : '';
  doc.fontSize(9).text(`Cashier: ${c.user_name}    Closed by: ${c.closed_by_name ?? ''}    At: ${at}`);
  doc.moveDown();
  const lines: [string, string][] = [
    ['Opening float', inr(c.opening_float ?? 0)],
    ['Cash received', inr(c.cash)],
    ['Card', inr(c.card)],
    ['UPI', inr(c.upi)],
    ['Bank transfer', inr(c.bank_transfer)],
    ['Cheques cleared', inr(c.cheque)],
    ['Insurance', inr(c.insurance)],
    ['Collections (all methods)', inr(c.collections)],
    ['Refunds (all methods)', inr(c.refunds)],
    ['Refunds paid in cash', inr(c.cash_refunds)],
    ['Net collections', inr(c.net)],
    ['Cheques received, not yet cleared', inr(c.pending_cheques)],
    ['Expected cash (float + cash - cash refunds)', inr(c.expected_cash ?? 0)],
    ['Counted cash', inr(c.counted_cash ?? 0)],
    ['Difference (counted - expected)', drawerDifferenceText(rupeesToPaise(c.difference ?? 0))],
  ];
  table(doc, ['Item', 'Amount'], lines, [340, 175]);
  if (c.notes) {
    doc.moveDown();
    // From the left margin: the table leaves the cursor in its last column.
    doc.font('regular').fontSize(9).text(`Notes: ${c.notes}`, doc.page.margins.left, doc.y, { width: 515 });
  }
  numberPages(doc, `${org.name} · closing ${day} · ${c.payments_count} payments`);
  await writeAudit(db, actor, {
    action: 'export',
    entity: 'day_closing',
    entityId: c.id!,
    newValues: { format: 'pdf' },
  });
  return { pdf: await toBuffer(doc), name: `closing-${c.date}-${c.user_id}.pdf` };
}

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
