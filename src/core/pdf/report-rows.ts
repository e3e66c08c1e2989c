import type { ReportLine } from './report-types.js';

/**
 * The rows of the results table. One test prints as one or more pieces (its main row, and the
 * table of a structured result); each piece is measured before it is placed, so the page layout
 * (report-layout.ts) can keep rows together. A test with its own layout (a culture's antibiogram, a
 * urine routine's sections) adds its pieces here through `testPieces`.
 */
import { structuredPieces } from './structured-report.js';
import { GREY, LINE, hRule } from './blocks.js';

export { GREY, LINE };

export interface RowPiece {
  height: number;
  keepWithNext?: boolean;
  draw(y: number): void;
}

export interface TableContext {
  doc: PDFKit.PDFDocument;
  left: number;
  width: number;
  when: (iso: string | null) => string;
}

export const RED = '#a1001a';

const FLAG_TEXT: Record<string, string> = { high: 'H', low: 'L', abnormal: 'Abnormal', normal: '' };

export function columns(width: number) {
  return [
    { h: 'Test', w: width - 92 - 56 - 110 - 80 },
    { h: 'Result', w: 92 },
    { h: 'Unit', w: 56 },
    { h: 'Reference Range', w: 110 },
    { h: 'Flag', w: 80 },
  ];
}

export const COLUMN_HEADER_H = 18;

export function drawColumnHeader(ctx: TableContext, y: number): void {
  const { doc, left, width } = ctx;
  doc.rect(left, y, width, COLUMN_HEADER_H).fill('#eeeeee').fillColor('#000000');
  let x = left;
  doc.font('bold').fontSize(8.5);
  for (const c of columns(width)) {
    doc.text(c.h, x + 4, y + 5, { width: c.w - 8, lineBreak: false });
    x += c.w;
  }
}

/** A line of text across the table (a category heading, a department's note). */
export function textPiece(
  ctx: TableContext,
  text: string,
  opts: { bold?: boolean; keepWithNext?: boolean } = {},
): RowPiece {
  const { doc, left, width } = ctx;
  const size = opts.bold ? 9 : 7.5;
  doc.font(opts.bold ? 'bold' : 'regular').fontSize(size);
  const height = doc.heightOfString(text, { width: width - 8 }) + 6;
  return {
    height,
    keepWithNext: opts.keepWithNext,
    draw(y: number) {
      doc
        .font(opts.bold ? 'bold' : 'regular')
        .fontSize(size)
        .fillColor(opts.bold ? '#000000' : GREY)
        .text(text, left + 4, y + 4, { width: width - 8 });
      doc.fillColor('#000000');
    },
  };
}

/** The pieces one test prints as. */
export function testPieces(ctx: TableContext, l: ReportLine): RowPiece[] {
  const main = mainRow(ctx, l);
  if (l.state !== 'final' || !l.structured) return [main];
  // A panel or a culture: its tables follow its line, which never ends a page without them.
  return [{ ...main, keepWithNext: true }, ...structuredPieces(ctx.doc, ctx.left, ctx.width, l.structured)];
}

/** The test's row: name, value, unit, range, flag; under it the method, notes and amendments. */
function mainRow(ctx: TableContext, l: ReportLine): RowPiece {
  const { doc, left, width, when } = ctx;
  const cols = columns(width);
  const abnormal = l.state === 'final' && l.flag !== null && l.flag !== 'normal';
  const valueText =
    l.state === 'final' ? (l.value ?? '') : l.state === 'unverified' ? 'Awaiting verification' : 'Result awaited';
  const flagText =
    l.state === 'final'
      ? [l.flag ? (FLAG_TEXT[l.flag] ?? l.flag) : '', l.critical ? 'CRITICAL' : ''].filter(Boolean).join(' ')
      : '';
  // Who verified is said once per department, under its rows (report.ts), not on every row.
  const detail: string[] = [];
  if (l.method) detail.push(`Method: ${l.method}`);
  if (l.notes) detail.push(`Note: ${l.notes}`);
  for (const a of l.amendments) {
    detail.push(
      `Amended on ${when(a.at)}${a.by ? ` by ${a.by}` : ''}: earlier value ${a.old_value ?? '—'}${a.old_unit ? ` ${a.old_unit}` : ''}. Reason: ${a.reason}`,
    );
  }
  const cells = [l.test_name, valueText, l.unit ?? '', l.normal_range ?? '', flagText];
  const fontOf = (i: number) => ({
    font: ((i === 1 || i === 4) && abnormal) || (i === 4 && l.critical) ? 'bold' : 'regular',
    size: i === 1 && l.state !== 'final' ? 8 : 9,
  });
  const mainH = Math.max(
    ...cells.map((c, i) =>
      doc
        .font(fontOf(i).font)
        .fontSize(fontOf(i).size)
        .heightOfString(c, { width: cols[i]!.w - 8 }),
    ),
  );
  doc.font('regular').fontSize(7.5);
  const detailH = detail.reduce((h, d) => h + doc.heightOfString(d, { width: width - 12 }) + 1, 0);
  const height = mainH + 8 + (detailH ? detailH + 3 : 0);
  return {
    height,
    draw(y: number) {
      let x = left;
      cells.forEach((c, i) => {
        const colour = l.critical && (i === 1 || i === 4) ? RED : i === 1 && l.state !== 'final' ? GREY : '#000000';
        doc.font(fontOf(i).font).fontSize(fontOf(i).size).fillColor(colour);
        doc.text(c, x + 4, y + 4, { width: cols[i]!.w - 8 });
        x += cols[i]!.w;
      });
      let dy = y + mainH + 6;
      doc.font('regular').fontSize(7.5).fillColor(GREY);
      for (const d of detail) {
        doc.text(d, left + 8, dy, { width: width - 12 });
        dy = doc.y + 1;
      }
      doc.fillColor('#000000');
      hRule(doc, left, y + height, width, LINE, 0.5);
    },
  };
}
