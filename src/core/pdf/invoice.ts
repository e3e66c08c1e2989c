import type { InvoiceDetail } from '../../shared/schemas/invoices.js';
import type { PayerStatement } from '../../shared/schemas/payers.js';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../shared/billing.js';
import { formatMoney } from '../../shared/money.js';
import { GST_DOCUMENT_TITLES, GST_STATES, gstDocumentKind } from '../../shared/gst.js';
import type { OrganizationRow } from '../settings/service.js';
import { newDocument, numberPages, toBuffer } from './document.js';
import { formatLabDate, formatLabDateTime, formatLabDay } from './format.js';
import { fitColumns, widestValue } from './columns.js';
import { GREY, LINE, boxPair, contactLines, drawTable, factsRow, letterhead, tableRows } from './blocks.js';
import { amountInWordsLine, totalRule } from './totals.js';
import { ledgerTable } from './ledger.js';

/** The invoice's table: 8 pt, a little tighter than the bill's (as the statements' ledger). */
const INVOICE_TABLE = { size: 8, padX: 3, padY: 3.5 };

type Doc = PDFKit.PDFDocument;

function header(doc: Doc, org: OrganizationRow, title: string, gstin: string | null) {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  letterhead(doc, { left, width, top: 40 }, org.name, contactLines(org, gstin ? `GSTIN: ${gstin}` : null));
  doc.font('bold').fontSize(12).text(title, left, doc.y, { width, align: 'center' });
  doc.moveDown(0.4);
  return { left, width };
}

const stateName = (code: string | null) => (code ? `${GST_STATES[code] ?? ''} (${code})` : '—');

/**
 * The GST tax invoice (rule 46 of the CGST Rules): supplier and recipient with GSTINs, number and
 * date, place of supply, per line the SAC, taxable value and tax; CGST + SGST within the state or
 * IGST across; the total in words; and the authorised signatory's block.
 */
export async function invoicePdf(lab: OrganizationRow, inv: InvoiceDetail): Promise<Buffer> {
  // The supplier as the invoice was issued; a draft (nothing kept yet) shows the lab as it is today.
  const org: OrganizationRow =
    inv.lab_name === null
      ? lab
      : { ...lab, name: inv.lab_name, address: inv.lab_address, phone: inv.lab_phone, email: inv.lab_email };
  const doc = newDocument({
    title: `Invoice ${inv.invoice_number ?? 'draft'}`,
    author: org.name,
    createdAt: inv.issued_at ?? inv.created_at,
  });
  const money = (rupees: number) => formatMoney(Math.round(rupees * 100), org.currency);
  // An invoice of exempt lines only is a bill of supply (src/shared/gst.ts).
  const kind = GST_DOCUMENT_TITLES[gstDocumentKind(inv.lines.map((l) => l.rate_percent))];
  const title =
    inv.status === 'cancelled' ? `${kind} — CANCELLED` : inv.status === 'draft' ? `${kind} — DRAFT (NOT ISSUED)` : kind;
  const { left, width } = header(doc, org, title, inv.lab_gstin);
  const tz = org.timezone;

  factsRow(
    doc,
    { left, width },
    [
      ['Invoice No.', inv.invoice_number ?? 'Draft'],
      ['Invoice date', inv.invoice_date ? formatLabDay(inv.invoice_date, org.date_format) : '—'],
      ['Due date', inv.due_date ? formatLabDay(inv.due_date, org.date_format) : '—'],
      ['Place of supply', stateName(inv.place_of_supply)],
    ],
    { valueSize: 9, height: 34 },
  );

  // Supplier and recipient: each row wraps in full (a tax invoice carries the whole address); both
  // boxes are as tall as the taller.
  const blockY = doc.y;
  const { height } = boxPair(
    doc,
    { left, width, y: blockY },
    {
      title: 'Supplier',
      rows: [
        ['Name', org.name],
        ['GSTIN', inv.lab_gstin ?? '—'],
        ['State', stateName(inv.lab_state_code)],
        ['Address', org.address ?? '—'],
      ],
    },
    {
      title: 'Recipient',
      rows: [
        ['Name', inv.recipient_name],
        ['GSTIN', inv.recipient_gstin ?? 'Unregistered'],
        ['State', stateName(inv.recipient_state_code ?? inv.place_of_supply)],
        ['Address', inv.recipient_address ?? '—'],
      ],
    },
    { size: 8, keyWidth: 60, values: 'wrap' },
  );
  doc.y = blockY + height + 12;
  if (inv.period_from && inv.period_to) {
    doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(GREY)
      .text(
        `Services from ${formatLabDay(inv.period_from, org.date_format)} to ${formatLabDay(inv.period_to, org.date_format)}`,
        left,
        doc.y,
        { width },
      );
    doc.fillColor('#000000').moveDown(0.3);
  }

  const inter = inv.inter_state;
  // The amount columns as wide as their widest amount; the description takes the rest.
  const cells = inv.lines.map((l, i) => [
    String(i + 1),
    l.description,
    l.sac_code,
    String(l.qty),
    money(l.taxable),
    l.rate_percent === 0 ? 'Exempt' : `${l.rate_percent}`,
    ...(inter ? [money(l.igst)] : [money(l.cgst), money(l.sgst)]),
    money(l.total),
  ]);
  const cols = fitColumns(
    doc,
    [
      { h: '#', w: 22, align: 'left', fit: true },
      { h: 'Description', w: 0, align: 'left', flex: true },
      { h: 'SAC', w: 40, align: 'left', fit: true },
      { h: 'Qty', w: 28, align: 'right', fit: true },
      { h: 'Taxable value', w: 62, align: 'right', fit: true },
      { h: 'GST %', w: 42, align: 'right', fit: true },
      ...(inter
        ? [{ h: 'IGST', w: 60, align: 'right' as const, fit: true }]
        : [
            { h: 'CGST', w: 55, align: 'right' as const, fit: true },
            { h: 'SGST', w: 55, align: 'right' as const, fit: true },
          ]),
      { h: 'Amount', w: 66, align: 'right', fit: true },
    ],
    cells,
    8,
    3,
    width,
  );
  drawTable(tableRows(doc, { left, width }, cols, INVOICE_TABLE), cols, cells);

  doc.moveDown(0.6);
  const valueW = Math.max(
    100,
    widestValue(doc, [inv.exempt, inv.taxable, inv.igst, inv.cgst, inv.sgst, inv.total].map(money), 10.5),
  );
  const sumX = left + width - 160 - valueW;
  const line = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(bold ? 10.5 : 9)
      .fillColor('#000000');
    const h = doc.heightOfString(label, { width: 160 });
    doc.text(label, sumX, y, { width: 160 });
    doc.text(value, sumX + 160, y, { width: valueW, align: 'right' });
    doc.y = y + Math.max(h + 2, bold ? 16 : 13);
  };
  line('Exempt supplies', money(inv.exempt));
  line('Taxable value', money(inv.taxable));
  if (inter) line('IGST', money(inv.igst));
  else {
    line('CGST', money(inv.cgst));
    line('SGST', money(inv.sgst));
  }
  totalRule(doc, sumX, left + width);
  line('Invoice total', money(inv.total), true);

  doc.moveDown(0.5);
  amountInWordsLine(doc, { left, width }, Math.round(inv.total * 100), org.currency);
  doc.moveDown(0.3);
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(GREY)
    .text(
      'Diagnostic services of a clinical establishment are exempt from GST (notification 12/2017-Central Tax (Rate), entry 74). Tax is not payable on reverse charge.',
      left,
      doc.y,
      { width },
    );
  doc.fillColor('#000000');
  if (inv.status === 'cancelled') {
    doc
      .moveDown(0.4)
      .font('bold')
      .fontSize(9)
      .fillColor('#b00020')
      .text(`Cancelled by credit note ${inv.credit_note_number ?? ''}: ${inv.cancel_reason ?? ''}`, left, doc.y, {
        width,
      })
      .fillColor('#000000');
  }
  if (inv.status === 'paid' && inv.paid_at) {
    doc
      .moveDown(0.4)
      .font('bold')
      .fontSize(9)
      .text(
        `Paid ${formatLabDateTime(inv.paid_at, org.date_format, tz)} by ${PAYMENT_METHOD_LABELS[inv.payment_method as PaymentMethod] ?? inv.payment_method ?? ''}${inv.payment_reference ? ` (${inv.payment_reference})` : ''}`,
        left,
        doc.y,
        { width },
      );
  }

  // E-sign block: the authorised signatory signs here (or with a digital signature on the PDF).
  doc.moveDown(1.5);
  const boxW = 200;
  const boxX = left + width - boxW;
  const boxH = 80;
  const boxY = Math.min(doc.y, doc.page.height - doc.page.margins.bottom - 120);
  doc.roundedRect(boxX, boxY, boxW, boxH, 4).strokeColor(LINE).lineWidth(0.8).stroke();
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor('#000000')
    .text(`For ${org.name}`, boxX + 8, boxY + 6, { width: boxW - 16 });
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(GREY)
    .text('Authorised signatory (signature or digital signature)', boxX + 8, boxY + boxH - 28, { width: boxW - 16 });
  doc.fillColor('#000000');

  numberPages(
    doc,
    `${org.name} · ${inv.invoice_number ?? 'draft invoice'} · printed ${formatLabDate(new Date().toISOString(), org.date_format, tz)}`,
  );
  return toBuffer(doc);
}

/** The payer's statement of account for a period: opening balance, bills, payments, closing balance. */
export async function payerStatementPdf(org: OrganizationRow, st: PayerStatement): Promise<Buffer> {
  const doc = newDocument({ title: `Statement ${st.payer.name} ${st.from} to ${st.to}`, author: org.name });
  const money = (rupees: number) => formatMoney(Math.round(rupees * 100), org.currency);
  const { left, width } = header(doc, org, 'STATEMENT OF ACCOUNT', null);
  const tz = org.timezone;
  doc.font('bold').fontSize(10).text(st.payer.name, left, doc.y, { width });
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor(GREY)
    .text(
      [
        st.payer.gstin && `GSTIN ${st.payer.gstin}`,
        st.payer.address,
        `Period ${formatLabDay(st.from, org.date_format)} to ${formatLabDay(st.to, org.date_format)}`,
      ]
        .filter(Boolean)
        .join(' · '),
      {
        width,
      },
    );
  doc.fillColor('#000000').moveDown(0.5);
  ledgerTable(doc, { left, width }, st, {
    org,
    money,
    amounts: ['Debit', 'Credit'],
    fitBill: false,
  });
  numberPages(
    doc,
    `${org.name} · ${st.payer.name} · printed ${formatLabDate(new Date().toISOString(), org.date_format, tz)}`,
  );
  return toBuffer(doc);
}
