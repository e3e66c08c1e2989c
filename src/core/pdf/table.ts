import { hRule } from './blocks.js';

/** A simple table: header row bold, then rows; a new page when the page is full. */
export function table(doc: PDFKit.PDFDocument, header: string[], rows: (string | number)[][], widths: number[]): void {
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
    hRule(doc, x0, doc.y - 3, x - x0, '#dddddd');
  };
  drawRow(header, true);
  rows.forEach((r, i) => drawRow(r, i === rows.length - 1 && r[0] === 'Total'));
}
