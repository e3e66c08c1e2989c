import type { Col } from './columns.js';

/**
 * The pieces the bill, the tax invoice and the lab report are drawn from, so the three documents
 * keep one look: the lab's letterhead, a row of facts (number, date, status...), a labelled box of
 * key / value rows, and a table row. Each takes its place and measures from the caller: the
 * documents differ in sizes, not in how a piece is drawn.
 */

type Doc = PDFKit.PDFDocument;

export const GREY = '#555555';
export const LINE = '#cccccc';

/** A horizontal rule `width` long from (x, y): under a letterhead, a table row, a signature. */
export function hRule(doc: Doc, x: number, y: number, width: number, color: string, lineWidth?: number): void {
  doc
    .moveTo(x, y)
    .lineTo(x + width, y)
    .strokeColor(color);
  if (lineWidth !== undefined) doc.lineWidth(lineWidth);
  doc.stroke();
}

/** The lab's contact lines under its name: the address, then phone and email on one line, then `extra`. */
export function contactLines(
  lab: { address: string | null; phone: string | null; email: string | null },
  ...extra: (string | null)[]
): string[] {
  return [
    lab.address,
    [lab.phone && `Phone: ${lab.phone}`, lab.email && `Email: ${lab.email}`].filter(Boolean).join('   '),
    ...extra,
  ].filter((l): l is string => Boolean(l));
}

/** The lab's name centred at `top`, its contact lines in grey, and a rule across the page under them. */
export function letterhead(doc: Doc, at: { left: number; width: number; top: number }, name: string, lines: string[]) {
  const { left, width } = at;
  doc.font('bold').fontSize(16).fillColor('#000000').text(name, left, at.top, { width, align: 'center' });
  doc.font('regular').fontSize(8.5).fillColor(GREY);
  for (const line of lines) doc.text(line, { width, align: 'center' });
  doc.fillColor('#000000').moveDown(0.5);
  hRule(doc, left, doc.y, width, '#333333', 1);
  doc.moveDown(0.4);
}

/**
 * Facts side by side in equal columns across the page, each a small grey label over its value in
 * bold ("Bill No." over "OP-2026-0001"); the row is `height` tall and the text goes on under it.
 */
export function factsRow(
  doc: Doc,
  at: { left: number; width: number },
  facts: [label: string, value: string][],
  style: { valueSize: number; height: number },
) {
  const y = doc.y;
  const colW = at.width / facts.length;
  facts.forEach(([label, value], i) => {
    const x = at.left + i * colW;
    doc
      .font('regular')
      .fontSize(7.5)
      .fillColor(GREY)
      .text(label, x, y, { width: colW - 6 });
    doc
      .font('bold')
      .fontSize(style.valueSize)
      .fillColor('#000000')
      .text(value, x, y + 10, { width: colW - 6 });
  });
  doc.y = y + style.height;
}

export interface BoxStyle {
  /** Type size of the rows. */
  size: number;
  /** Width of the grey labels; the values start 10 pt after them. */
  keyWidth: number;
  /**
   * 'wrap': a value takes as many lines as it needs (a tax invoice carries a whole address);
   * 'clip': one line each, cut with an ellipsis, so a long name cannot push the box open.
   */
  values: 'wrap' | 'clip';
  /** With 'clip', also no line breaking inside the value (a report's fixed-height boxes). */
  noBreak?: boolean;
}

const valueWidth = (w: number, style: BoxStyle) => w - style.keyWidth - 18;

/** One row's height in a box of width `w`: 13 pt clipped, or the wrapped value's height (at least 12). */
function rowHeight(doc: Doc, value: string, w: number, style: BoxStyle): number {
  if (style.values === 'clip') return 13;
  doc.font('regular').fontSize(style.size);
  return Math.max(12, doc.heightOfString(value, { width: valueWidth(w, style) }) + 2);
}

/** The height a box of width `w` needs for its title and these rows. */
export function boxHeight(doc: Doc, w: number, rows: [string, string][], style: BoxStyle): number {
  return 26 + rows.reduce((h, [, v]) => h + rowHeight(doc, v, w, style), 0);
}

/** A rounded box with a bold title and rows of a grey label and its value. */
export function labelledBox(
  doc: Doc,
  box: { x: number; y: number; w: number; h: number },
  title: string,
  rows: [label: string, value: string][],
  style: BoxStyle,
) {
  const { x, w } = box;
  doc.roundedRect(x, box.y, w, box.h, 4).strokeColor(LINE).lineWidth(0.8).stroke();
  doc
    .font('bold')
    .fontSize(9)
    .fillColor('#000000')
    .text(title, x + 8, box.y + 6, { width: w - 16 });
  let y = box.y + 20;
  for (const [k, v] of rows) {
    const h = rowHeight(doc, v, w, style);
    doc
      .font('regular')
      .fontSize(style.size)
      .fillColor(GREY)
      .text(k, x + 8, y, { width: style.keyWidth });
    const fit =
      style.values === 'clip' ? { height: 11, ellipsis: true, ...(style.noBreak ? { lineBreak: false } : {}) } : {};
    doc.fillColor('#000000').text(v, x + style.keyWidth + 10, y, { width: valueWidth(w, style), ...fit });
    y += h;
  }
}

/**
 * Two labelled boxes side by side across the page (patient and doctor, supplier and recipient),
 * both `height` tall, or as tall as the taller one needs when it is not given. Returns where the
 * right box starts and their height, for what a document draws inside or under them.
 */
export function boxPair(
  doc: Doc,
  at: { left: number; width: number; y: number; height?: number },
  first: { title: string; rows: [string, string][] },
  second: { title: string; rows: [string, string][] },
  style: BoxStyle,
): { half: number; secondX: number; height: number } {
  const half = at.width / 2 - 8;
  const height =
    at.height ?? Math.max(boxHeight(doc, half, first.rows, style), boxHeight(doc, half, second.rows, style));
  const secondX = at.left + half + 16;
  labelledBox(doc, { x: at.left, y: at.y, w: half, h: height }, first.title, first.rows, style);
  labelledBox(doc, { x: secondX, y: at.y, w: half, h: height }, second.title, second.rows, style);
  return { half, secondX, height };
}

/**
 * A table drawn row by row: `row(cells)` wraps each cell in its column, rules the row off and moves
 * on, starting a new page when the row would run into the footer's room. `padX` / `padY` are the
 * cell's insets.
 */
export function tableRows(
  doc: Doc,
  at: { left: number; width: number },
  cols: Col[],
  style: { size: number; padX: number; padY: number },
) {
  const { left, width } = at;
  const row = (cells: string[], opts: { bold?: boolean; fill?: string } = {}): void => {
    const y = doc.y;
    doc.font(opts.bold ? 'bold' : 'regular').fontSize(style.size);
    const h =
      Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i]!.w - 2 * style.padX }))) + 2 * style.padY;
    if (y + h > doc.page.height - doc.page.margins.bottom - 40) {
      doc.addPage();
      doc.y = doc.page.margins.top;
      return row(cells, opts);
    }
    if (opts.fill) doc.rect(left, y, width, h).fill(opts.fill).fillColor('#000000');
    let x = left;
    cells.forEach((c, i) => {
      doc
        .fillColor('#000000')
        .text(c, x + style.padX, y + style.padY, { width: cols[i]!.w - 2 * style.padX, align: cols[i]!.align });
      x += cols[i]!.w;
    });
    hRule(doc, left, y + h, width, LINE, 0.5);
    doc.y = y + h;
  };
  return row;
}

/** The table's bold header row on a grey band, then each row of cells. */
export function drawTable(row: ReturnType<typeof tableRows>, cols: Col[], rows: string[][]) {
  row(
    cols.map((c) => c.h),
    { bold: true, fill: '#eeeeee' },
  );
  for (const r of rows) row(r);
}
