import { amountInWords } from '../../shared/billing.js';

/** The foot of a bill's or an invoice's table: the rule above the grand total and the total in words. */

type Doc = PDFKit.PDFDocument;

/** The rule drawn above a totals column's grand total, from the labels' left edge to the page's right. */
export function totalRule(doc: Doc, fromX: number, toX: number) {
  doc.moveTo(fromX, doc.y).lineTo(toX, doc.y).strokeColor('#333333').lineWidth(0.8).stroke();
  doc.y += 4;
}

/** The document's total in words after a bold label. */
export function amountInWordsLine(doc: Doc, at: { left: number; width: number }, paise: number, currency: string) {
  doc
    .font('bold')
    .fontSize(9)
    .text('Amount in words: ', at.left, doc.y, { continued: true })
    .font('regular')
    .text(amountInWords(paise, currency), { width: at.width });
}
