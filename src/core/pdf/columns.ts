/**
 * Column widths that fit what a table holds. An amount column is as wide as its widest cell (an
 * amount never wraps: ₹10,00,00,320.76 on two lines reads as two figures), never narrower than its
 * designed width; the one flexible column (the description) takes what is left of the page.
 */
export interface Col {
  h: string;
  w: number;
  align: 'left' | 'right';
  /** Widen to the widest cell. */
  fit?: boolean;
  /** Takes the width the others leave. */
  flex?: boolean;
}

/**
 * Measured in bold at the table's size (bold is the wider face; a table may print a bold total row),
 * with `pad` on each side as the table draws its cells.
 */
export function fitColumns(
  doc: PDFKit.PDFDocument,
  cols: Col[],
  rows: string[][],
  size: number,
  pad: number,
  total: number,
): Col[] {
  doc.font('bold').fontSize(size);
  const out = cols.map((c, i) => {
    if (!c.fit) return { ...c };
    const widest = Math.max(doc.widthOfString(c.h), ...rows.map((r) => doc.widthOfString(r[i] ?? '')));
    return { ...c, w: Math.max(c.w, Math.ceil(widest) + 2 * pad + 1) };
  });
  const flex = out.find((c) => c.flex);
  if (flex) flex.w = total - out.reduce((s, c) => (c === flex ? s : s + c.w), 0);
  return out;
}

/** The width of the widest of these values in bold at this size, plus a point for rounding. */
export function widestValue(doc: PDFKit.PDFDocument, values: string[], size: number): number {
  doc.font('bold').fontSize(size);
  return Math.ceil(Math.max(...values.map((v) => doc.widthOfString(v)))) + 1;
}
