import type { Bill } from '../../shared/schemas/bills.js';
import type { Patient } from '../../shared/schemas/patients.js';
import { formatMoney } from '../../shared/money.js';
import type { OrganizationRow } from '../settings/service.js';
import { newDocument, numberPages, toBuffer } from './document.js';
import { formatLabDate, formatLabDateTime } from './format.js';
import { fitColumns, widestValue } from './columns.js';
import { GREY, boxPair, contactLines, drawTable, factsRow, letterhead, tableRows } from './blocks.js';
import { amountInWordsLine, totalRule } from './totals.js';
import { doctorTitledName } from '../../shared/person-name.js';
import { EXEMPT_DECLARATION, GST_DOCUMENT_TITLES, gstDocumentKind } from '../../shared/gst.js';

export interface BillPdfInput {
  org: OrganizationRow;
  bill: Bill;
  patient: Patient;
  doctor: { name: string; title?: string | null; specialization: string | null; department: string | null } | null;
  /** A portal PIN issued with this print, and the portal's address, printed on the slip. */
  portal?: { url: string; pin: string };
  /** The lab's GSTIN, printed on a tax invoice (rule 46). */
  gstin?: string | null;
}

/** The printable OP bill: clinic header, patient and doctor blocks, items, summary, amount in words, footer. */
export async function billPdf({ org, bill, patient, doctor, portal, gstin }: BillPdfInput): Promise<Buffer> {
  // Dated by the bill, so the UI's download and `lims bill print` of a bill on one day are the same bytes.
  const doc = newDocument({ title: `Bill ${bill.bill_number}`, author: org.name, createdAt: bill.created_at });
  // Amounts in the lab's currency (System Settings).
  const inr = (rupees: number) => formatMoney(Math.round(rupees * 100), org.currency);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  // An all-exempt bill is a bill of supply, a bill with a taxable line a tax invoice (src/shared/gst.ts).
  const kind = gstDocumentKind((bill.items ?? []).map((it) => (it.tax_category === 'exempt' ? 0 : it.gst_percent)));
  const title = GST_DOCUMENT_TITLES[kind];
  letterhead(
    doc,
    { left, width, top: 40 },
    org.name,
    contactLines(org, kind === 'tax_invoice' && gstin ? `GSTIN: ${gstin}` : null),
  );
  doc
    .font('bold')
    .fontSize(12)
    .text(bill.status === 'cancelled' ? `${title} — CANCELLED` : title, left, doc.y, {
      width,
      align: 'center',
    });
  doc.font('regular').fontSize(8.5).fillColor(GREY).text('Outpatient bill', left, doc.y, { width, align: 'center' });
  doc.fillColor('#000000');
  doc.moveDown(0.4);

  const tz = org.timezone;
  factsRow(
    doc,
    { left, width },
    [
      ['Bill No.', bill.bill_number],
      ['Bill Date', formatLabDateTime(bill.created_at, org.date_format, tz)],
      ['Payment status', bill.payment_status.toUpperCase()],
    ],
    { valueSize: 9.5, height: 30 },
  );

  // Patient and doctor: fixed boxes, each value on one line.
  const blockY = doc.y;
  boxPair(
    doc,
    { left, width, y: blockY, height: 78 },
    {
      title: 'Patient',
      rows: [
        ['Name', `${patient.first_name} ${patient.last_name}`],
        ['Patient ID', patient.patient_id],
        ['Age / Sex', `${patient.age_text ?? '—'} / ${patient.gender ?? '—'}`],
        ['Phone', patient.phone ?? '—'],
      ],
    },
    {
      title: 'Doctor',
      rows: doctor
        ? [
            ['Name', doctorTitledName({ title: doctor.title, first_name: doctor.name, last_name: '' })],
            ['Speciality', doctor.specialization ?? '—'],
            ['Department', doctor.department ?? '—'],
            ['Visit', bill.visit_type === 'lab_only' ? 'Lab tests only' : 'Consultation + lab tests'],
          ]
        : [
            ['Name', 'No doctor'],
            ['Visit', 'Lab tests only'],
          ],
    },
    { size: 8.5, keyWidth: 70, values: 'clip' },
  );
  doc.y = blockY + 92;

  // Items table: the amount columns as wide as their widest amount, the particulars take the rest.
  const cells = (bill.items ?? []).map((it, i) => [
    String(i + 1),
    it.particulars,
    String(it.qty),
    inr(it.price),
    it.tax_category === 'exempt' ? 'Exempt' : `${it.gst_percent}`,
    `${it.discount_percent}`,
    inr(it.total),
  ]);
  const cols = fitColumns(
    doc,
    [
      { h: '#', w: 22, align: 'left' },
      { h: 'Particulars', w: 0, align: 'left', flex: true },
      { h: 'Qty', w: 36, align: 'right', fit: true },
      { h: 'Rate', w: 70, align: 'right', fit: true },
      { h: 'GST %', w: 44, align: 'right', fit: true },
      { h: 'Disc %', w: 44, align: 'right', fit: true },
      { h: 'Amount', w: 80, align: 'right', fit: true },
    ],
    cells,
    8.5,
    4,
    width,
  );
  drawTable(tableRows(doc, { left, width }, cols, { size: 8.5, padX: 4, padY: 4 }), cols, cells);

  // Summary: the figures' column fits the widest of them in the total's type.
  doc.moveDown(0.6);
  const figures = [
    bill.subtotal,
    bill.consultation_fee,
    bill.total_before_discount,
    bill.tax_amount,
    bill.final_amount,
    bill.paid_amount,
    bill.balance,
  ].map(inr);
  const valueW = Math.max(100, widestValue(doc, [...figures, `− ${inr(bill.discount_amount)}`], 10.5));
  const sumX = left + width - 150 - valueW;
  const line = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'bold' : 'regular').fontSize(bold ? 10.5 : 9);
    doc.text(label, sumX, y, { width: 150 });
    doc.text(value, sumX + 150, y, { width: valueW, align: 'right' });
    doc.y = y + (bold ? 16 : 13);
  };
  line('Subtotal', inr(bill.subtotal));
  line('Consultation fee', inr(bill.consultation_fee));
  line('Total before discount', inr(bill.total_before_discount));
  line(`Discount (${bill.discount_percentage}%)`, `− ${inr(bill.discount_amount)}`);
  // GST per line from each test's tax category (src/shared/gst.ts): the GST % column above is what is charged.
  line(bill.tax_amount > 0 ? 'GST (per line)' : 'GST (all lines exempt)', inr(bill.tax_amount));
  totalRule(doc, sumX, left + width);
  line('Total', inr(bill.final_amount), true);
  line('Paid', inr(bill.paid_amount));
  line('Balance', inr(bill.balance), true);

  const payments = bill.payments ?? [];
  if (payments.length) {
    doc.moveDown(0.4);
    doc.font('bold').fontSize(9).text('Payments', left, doc.y);
    doc.font('regular').fontSize(8.5);
    for (const p of payments) {
      const what = p.amount < 0 ? `Refund${p.reason ? ` (${p.reason})` : ''}` : 'Received';
      const ref = p.reference ? ` · ref ${p.reference}` : '';
      doc.text(
        `${formatLabDateTime(p.created_at, org.date_format, tz)}  ${what}  ${inr(p.amount)}  ${p.method.toUpperCase()}${ref}`,
        left,
        doc.y,
        { width },
      );
    }
  }
  doc.moveDown(0.5);
  amountInWordsLine(doc, { left, width }, Math.round(bill.final_amount * 100), org.currency);
  if (bill.status === 'cancelled' && bill.cancel_reason) {
    doc
      .moveDown(0.3)
      .font('bold')
      .fillColor('#b00020')
      .text(`Cancelled: ${bill.cancel_reason}`, { width })
      .fillColor('#000000');
  }
  if (portal) {
    // The patient's own sign-in, printed once: the PIN is stored only as a hash.
    doc.moveDown(1);
    doc.font('bold').fontSize(9).fillColor('#000000').text('See your reports online', left, doc.y, { width });
    doc
      .font('regular')
      .fontSize(8.5)
      .text(
        `Patient portal: ${portal.url} · Patient ID ${patient.patient_id} · your mobile number · PIN ${portal.pin}. Keep the PIN private; the lab can reset it.`,
        left,
        doc.y + 2,
        { width },
      );
  }
  if (kind === 'bill_of_supply')
    doc.moveDown(0.3).font('regular').fontSize(8).fillColor(GREY).text(EXEMPT_DECLARATION, left, doc.y, { width });
  doc.fillColor('#000000');
  doc.moveDown(1.5);
  doc
    .font('regular')
    .fontSize(8)
    .fillColor(GREY)
    .text('This is a computer-generated bill. Thank you for choosing us; wishing you good health.', left, doc.y, {
      width,
      align: 'center',
    });
  doc.fillColor('#000000');

  numberPages(
    doc,
    `${org.name} · ${bill.bill_number} · printed ${formatLabDate(new Date().toISOString(), org.date_format, tz)}`,
  );
  return toBuffer(doc);
}
