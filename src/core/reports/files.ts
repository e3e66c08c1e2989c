import type { ReportColumn, ReportResult } from '../../shared/schemas/reports.js';
import type { ReportChart } from '../../shared/schemas/reports.js';
import { formatLabDate, formatLabDateTime, type LabFormat } from '../../shared/time.js';
import { newDocument, numberPages, toBuffer } from '../pdf/document.js';
import { csvHeader, csvRows } from '../export/csv.js';

/**
 * A report as a file: CSV and XLSX keep raw values (money in rupees, times as ISO UTC) so they
 * add up in a spreadsheet; the PDF shows them as the lab reads them (₹, lab time) with the chart.
 */

export interface ReportFile {
  body: Buffer | string;
  type: string;
  name: string;
}

const fileName = (r: ReportResult, ext: string) => `${r.id}-${r.from}-to-${r.to}.${ext}`;

function totalsRow(r: ReportResult): (string | number | null)[] | null {
  if (!r.totals) return null;
  const cells = r.columns.map((c) => r.totals![c.key] ?? null);
  if (cells.every((c) => c === null)) return null;
  if (cells[0] === null && !cells.some((c) => typeof c === 'string')) cells[0] = 'Total';
  return cells;
}

export function reportCsv(r: ReportResult): ReportFile {
  const rows = r.rows.map((row) => r.columns.map((c) => row[c.key] ?? ''));
  const total = totalsRow(r);
  if (total) rows.push(total.map((c) => c ?? ''));
  return {
    body: csvHeader(r.columns.map((c) => c.label)) + csvRows(rows),
    type: 'text/csv; charset=utf-8',
    name: fileName(r, 'csv'),
  };
}

export async function reportXlsx(r: ReportResult): Promise<ReportFile> {
  // exceljs is large: loaded only when a spreadsheet is asked for.
  const { default: Excel } = await import('exceljs');
  const wb = new Excel.Workbook();
  const ws = wb.addWorksheet(r.title.slice(0, 31));
  ws.addRow([`${r.title}: ${r.from} to ${r.to}`]).font = { bold: true };
  ws.addRow(r.columns.map((c) => c.label)).font = { bold: true };
  for (const row of r.rows) ws.addRow(r.columns.map((c) => row[c.key] ?? null));
  const total = totalsRow(r);
  if (total) ws.addRow(total).font = { bold: true };
  r.columns.forEach((c, i) => {
    const column = ws.getColumn(i + 1);
    column.width = Math.max(12, Math.min(40, c.label.length + 4));
    if (c.kind === 'money') column.numFmt = '#,##0.00';
  });
  if (r.chart) {
    const cs = wb.addWorksheet('Chart data');
    cs.addRow([r.chart.label, r.chart.value_label]).font = { bold: true };
    for (const p of r.chart.points) cs.addRow([p.label, p.value]);
  }
  return {
    body: Buffer.from(await wb.xlsx.writeBuffer()),
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    name: fileName(r, 'xlsx'),
  };
}

const inr = (n: number) => `₹${n.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function showCell(v: string | number | null | undefined, c: Pick<ReportColumn, 'kind'>, f: LabFormat): string {
  if (v === null || v === undefined || v === '') return '';
  if (typeof v === 'number') {
    if (c.kind === 'money') return inr(v);
    if (c.kind === 'percent') return `${v.toFixed(2)}%`;
    return v.toLocaleString('en-IN');
  }
  if (c.kind === 'datetime') return formatLabDateTime(v, f);
  return v;
}

/** A table across the page width; columns share the width by the length of their header and cells. */
export function drawTable(doc: PDFKit.PDFDocument, columns: ReportColumn[], rows: string[][], boldLast: boolean): void {
  const x0 = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const weight = columns.map((c, i) =>
    Math.min(30, Math.max(6, c.label.length + 2, ...rows.slice(0, 200).map((r) => r[i]!.length))),
  );
  const sum = weight.reduce((a, b) => a + b, 0);
  const widths = weight.map((w) => (w / sum) * width);
  const right = (i: number) =>
    columns[i]!.kind !== 'text' && columns[i]!.kind !== 'date' && columns[i]!.kind !== 'datetime';
  const drawRow = (cells: string[], bold: boolean) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 30) {
      doc.addPage();
      drawRow(
        columns.map((c) => c.label),
        true,
      );
    }
    const y = doc.y;
    let x = x0;
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(7.5)
      .fillColor('#111111');
    cells.forEach((cell, i) => {
      // One line per cell, cut with an ellipsis: a long test name wrapped over the next row.
      doc.text(cell, x + 2, y, {
        width: widths[i]! - 4,
        height: 9,
        align: right(i) ? 'right' : 'left',
        ellipsis: true,
      });
      x += widths[i]!;
    });
    doc.y = y + 13;
    doc
      .moveTo(x0, doc.y - 3)
      .lineTo(x0 + width, doc.y - 3)
      .strokeColor('#dddddd')
      .lineWidth(0.5)
      .stroke();
  };
  drawRow(
    columns.map((c) => c.label),
    true,
  );
  rows.forEach((r, i) => drawRow(r, boldLast && i === rows.length - 1));
  doc.x = x0;
}

/**
 * The points a printed chart draws, and the note when some are left out: a bar chart keeps its
 * highest (as on screen), a series over time its latest.
 */
export function chartPoints(
  chart: ReportChart,
  maxBars: number,
): { points: ReportChart['points']; note: string | null } {
  if (chart.points.length <= maxBars) return { points: chart.points, note: null };
  const bar = chart.kind === 'bar';
  return {
    points: bar ? [...chart.points].sort((a, b) => b.value - a.value).slice(0, maxBars) : chart.points.slice(-maxBars),
    note: `The ${bar ? 'highest' : 'last'} ${maxBars} of ${chart.points.length} shown; all are in the table.`,
  };
}

/** A horizontal bar chart drawn with pdfkit: a label and a value printed beside every bar. */
export function drawBarChart(doc: PDFKit.PDFDocument, chart: ReportChart, f: LabFormat, maxBars = 15): void {
  const { points, note } = chartPoints(chart, maxBars);
  const x0 = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const barH = 11;
  const needed = 22 + points.length * (barH + 4);
  if (doc.y + needed > doc.page.height - doc.page.margins.bottom - 20) doc.addPage();
  doc.font('bold').fontSize(9).fillColor('#111111').text(chart.title, x0, doc.y);
  doc.moveDown(0.3);
  if (points.length === 0) {
    doc.font('regular').fontSize(8).fillColor('#666666').text('Nothing in this period.');
    doc.moveDown(0.5);
    return;
  }
  const labelW = 140;
  const valueW = 80;
  const barW = width - labelW - valueW - 10;
  const max = Math.max(...points.map((p) => Math.abs(p.value)), 1);
  let y = doc.y;
  for (const p of points) {
    doc.font('regular').fontSize(7.5).fillColor('#333333');
    // One line, cut with an ellipsis (a height is what makes pdfkit cut: without one a long test
    // name wrapped onto the next bar's label).
    doc.text(p.label, x0, y + 1, { width: labelW - 6, height: 9, ellipsis: true });
    const w = Math.max(1, (Math.abs(p.value) / max) * barW);
    doc.rect(x0 + labelW, y, w, barH).fill(p.value < 0 ? '#b91c1c' : '#2563eb');
    doc.fillColor('#111111').text(showCell(p.value, { kind: chart.value_kind }, f), x0 + labelW + w + 4, y + 1, {
      width: valueW,
      lineBreak: false,
    });
    y += barH + 4;
  }
  if (note) doc.font('regular').fontSize(7).fillColor('#666666').text(note, x0, y);
  doc.y = y + 8;
  doc.x = x0;
  doc.fillColor('#111111');
}

/** One report's section in a PDF: title, period, chart, table, totals, notes. */
export function drawReport(doc: PDFKit.PDFDocument, r: ReportResult, f: LabFormat): void {
  doc.font('bold').fontSize(12).fillColor('#111111').text(r.title);
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor('#444444')
    .text(`${formatLabDate(r.from, f)} to ${formatLabDate(r.to, f)} (lab days) · ${r.rows.length} rows`);
  doc.moveDown(0.5);
  if (r.chart) drawBarChart(doc, r.chart, f);
  const rows = r.rows.map((row) => r.columns.map((c) => showCell(row[c.key], c, f)));
  const total = totalsRow(r);
  if (total)
    rows.push(
      r.columns.map((c, i) => (typeof total[i] === 'string' ? (total[i] as string) : showCell(total[i], c, f))),
    );
  if (rows.length === 0) doc.font('regular').fontSize(8.5).fillColor('#666666').text('No rows in this period.');
  else drawTable(doc, r.columns, rows, total !== null);
  const extra = r.totals
    ? Object.entries(r.totals).filter(([k, v]) => !r.columns.some((c) => c.key === k) && v !== null)
    : [];
  doc.moveDown(0.3);
  if (extra.length)
    doc
      .font('regular')
      .fontSize(8)
      .fillColor('#333333')
      .text(extra.map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`).join(' · '));
  for (const n of r.notes) doc.font('regular').fontSize(7.5).fillColor('#666666').text(n);
  doc.fillColor('#111111');
}

export async function reportPdf(r: ReportResult, lab: { name: string; format: LabFormat }): Promise<ReportFile> {
  const wide = r.columns.length > 6;
  const doc = newDocument({
    title: `${r.title} ${r.from} to ${r.to}`,
    size: 'A4',
    layout: wide ? 'landscape' : 'portrait',
    createdAt: r.generated_at,
  });
  doc.font('bold').fontSize(14).text(lab.name);
  doc.moveDown(0.3);
  drawReport(doc, r, lab.format);
  numberPages(
    doc,
    `${lab.name} · ${r.title} · ${r.from} to ${r.to} · generated ${formatLabDateTime(r.generated_at, lab.format)}`,
  );
  return { body: await toBuffer(doc), type: 'application/pdf', name: fileName(r, 'pdf') };
}
