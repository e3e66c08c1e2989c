import { amountInWords } from '../../shared/billing.js';
import { hRule } from './blocks.js';

/** The foot of a bill's or an invoice's table: the rule above the grand total and the total in words. */

type Doc = PDFKit.PDFDocument;

/** The rule drawn above a totals column's grand total, from the labels' left edge to the page's right. */
export function totalRule(doc: Doc, fromX: number, toX: number) {
  hRule(doc, fromX, doc.y, toX - fromX, '#333333', 0.8);
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
