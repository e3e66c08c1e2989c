import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { newDocument, numberPages } from '../pdf/document.js';
import { formatLabDate } from '../pdf/format.js';
import { hRule } from '../pdf/blocks.js';
import type { OrganizationRow } from '../settings/service.js';
import type { RecordWriter } from '../transfer/service.js';
import { formatMoney } from '../../shared/money.js';
import { localDate } from '../../shared/time.js';

/**
 * "Billing Data PDF" of the data screens: the bills of a period as a printed register (number,
 * date, patient, amount, paid, balance, status) with the totals of the non-cancelled bills, from
 * the same bill records the CSV/XLSX export writes. The PDF is piped to the export's file.
 */
export function billRegisterWriter(
  org: OrganizationRow,
  out: Writable,
  range: { from?: string; to?: string },
): RecordWriter {
  const doc = newDocument({ title: 'Bill register', author: org.name, size: 'A4' });
  doc.pipe(out);
  const inr = (rupees: number) => formatMoney(Math.round(rupees * 100), org.currency);
  const left = 40;
  const width = doc.page.width - 80;
  // Bill no., date, patient, amount, paid, balance, status.
  const cols = [
    { w: 0.17, align: 'left' },
    { w: 0.12, align: 'left' },
    { w: 0.25, align: 'left' },
    { w: 0.13, align: 'right' },
    { w: 0.12, align: 'right' },
    { w: 0.11, align: 'right' },
    { w: 0.1, align: 'left' },
  ] as const;
  const totals = { bills: 0, cancelled: 0, amount: 0, paid: 0, balance: 0 };
  const period =
    range.from || range.to
      ? `${range.from ? formatLabDate(range.from, org.date_format, 'UTC') : 'the first bill'} to ${
          range.to ? formatLabDate(range.to, org.date_format, 'UTC') : localDateText()
        }`
      : 'all bills';
  function localDateText() {
    return formatLabDate(localDate(org.timezone), org.date_format, 'UTC');
  }

  const row = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - 70) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    let x = left;
    doc.font(bold ? 'bold' : 'regular').fontSize(8.5);
    let h = 0;
    cells.forEach((text, i) => {
      const w = cols[i]!.w * width;
      doc.text(text, x + 2, y, { width: w - 4, align: cols[i]!.align });
      h = Math.max(h, doc.y - y);
      x += w;
    });
    doc.y = y + h + 3;
    doc.x = left;
  };
  const header = () => {
    row(['Bill No.', 'Date', 'Patient', 'Amount', 'Paid', 'Balance', 'Status'], true);
    hRule(doc, left, doc.y - 1, width, '#999999');
    doc.y += 2;
  };

  doc.font('bold').fontSize(14).text(org.name, left, 40, { width });
  doc.font('regular').fontSize(10).text(`Bill register: ${period}`, { width });
  doc.moveDown(0.8);
  header();

  return {
    async write(records) {
      for (const b of records) {
        const cancelled = b.status === 'cancelled';
        const amount = Number(b.final_amount ?? 0);
        const paid = Number(b.paid_amount ?? 0);
        const balance = Number(b.balance ?? 0);
        totals.bills += 1;
        if (cancelled) totals.cancelled += 1;
        else {
          totals.amount += amount;
          totals.paid += paid;
          totals.balance += balance;
        }
        row([
          String(b.bill_number ?? ''),
          b.created_at ? formatLabDate(String(b.created_at), org.date_format, org.timezone) : '',
          `${String(b.patient_first_name ?? '')} ${String(b.patient_last_name ?? '')}`.trim(),
          inr(amount),
          inr(paid),
          inr(balance),
          String(b.status ?? ''),
        ]);
      }
    },
    async close() {
      doc.moveDown(0.5);
      row(
        [
          `${totals.bills} bills`,
          '',
          totals.cancelled ? `${totals.cancelled} cancelled (not in the totals)` : '',
          inr(totals.amount),
          inr(totals.paid),
          inr(totals.balance),
          '',
        ],
        true,
      );
      numberPages(doc, `${org.name} · bill register · ${period}`);
      // The document ends the file once its last bytes are written.
      doc.end();
      await finished(out);
    },
  };
}
