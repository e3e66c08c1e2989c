import type { Bill } from '@shared/schemas/bills';
import { formatMoney } from '@/lib/format';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, humanize, type LabFormat } from '@/lib/format';
import { notify } from '@/lib/notify';
import { fetchBillPage, type BillFilters } from '../api';
import { doctorName, paiseOf, patientName } from '@/lib/billText';

/** The API's largest page; a printed list longer than MAX_ROWS is cut, with a note to export instead. */
const PAGE = 200;
const MAX_ROWS = 2000;

const CSS = `
  body { font: 12px/1.4 system-ui, sans-serif; color: #0f172a; margin: 16mm; }
  h1 { font-size: 18px; margin: 0 0 2px; }
  p { margin: 0 0 10px; color: #475569; }
  table { width: 100%; border-collapse: collapse; }
  th, td { border-bottom: 1px solid #cbd5e1; padding: 4px 6px; text-align: left; vertical-align: top; }
  th { font-size: 11px; text-transform: uppercase; color: #475569; }
  td.n, th.n { text-align: right; white-space: nowrap; }
  tfoot td { font-weight: 600; border-top: 2px solid #0f172a; }
  @page { size: A4 landscape; margin: 10mm; }
  @media print { body { margin: 0; } }
`;

function el<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  text?: string,
  cls?: string,
): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function describe(f: BillFilters): string {
  const parts: string[] = [];
  if (f.search?.trim()) parts.push(`search "${f.search.trim()}"`);
  if (f.status && f.status !== 'all') parts.push(`status ${f.status}`);
  if (f.payment_status && f.payment_status !== 'all') parts.push(`payment ${f.payment_status}`);
  if (f.date_range && f.date_range !== 'all') parts.push(f.date_range === 'today' ? 'today' : `this ${f.date_range}`);
  return parts.length ? `Filters: ${parts.join(', ')}` : 'All bills';
}

/** Writes the list into the window with the browser's own DOM calls (text only, nothing parsed as HTML). */
function render(w: Window, bills: Bill[], total: number, filters: BillFilters, fmt: LabFormat): void {
  const doc = w.document;
  doc.title = 'Bills List';
  doc.head.appendChild(el(doc, 'style', CSS));
  doc.body.textContent = '';
  doc.body.appendChild(el(doc, 'h1', `Bills List (${total})`));
  const cut = total > bills.length ? ` · first ${bills.length} shown; use Export for all` : '';
  doc.body.appendChild(el(doc, 'p', `${describe(filters)} · printed ${formatDateTime(new Date(), fmt)}${cut}`));

  const table = el(doc, 'table');
  const head = el(doc, 'tr');
  const headers: [string, boolean][] = [
    ['Bill Number', false],
    ['Date', false],
    ['Patient', false],
    ['Doctor', false],
    ['Amount', true],
    ['Paid', true],
    ['Balance', true],
    ['Status', false],
    ['Payment', false],
  ];
  for (const [h, num] of headers) head.appendChild(el(doc, 'th', h, num ? 'n' : undefined));
  table.appendChild(el(doc, 'thead')).appendChild(head);
  const body = table.appendChild(el(doc, 'tbody'));
  let amount = 0;
  let paid = 0;
  for (const b of bills) {
    const tr = el(doc, 'tr');
    const cells: [string, boolean][] = [
      [b.bill_number, false],
      [formatDate(b.bill_date, fmt), false],
      [`${patientName(b)} (${b.patient_patient_id})`, false],
      [doctorName(b), false],
      [formatMoney(paiseOf(b.final_amount)), true],
      [formatMoney(paiseOf(b.paid_amount)), true],
      [formatMoney(paiseOf(b.balance)), true],
      [humanize(b.status), false],
      [humanize(b.payment_status), false],
    ];
    for (const [c, num] of cells) tr.appendChild(el(doc, 'td', c, num ? 'n' : undefined));
    body.appendChild(tr);
    // Cancelled bills are listed but owe nothing: leave them out of the totals.
    if (b.status !== 'cancelled') {
      amount += paiseOf(b.final_amount);
      paid += paiseOf(b.paid_amount);
    }
  }
  const foot = el(doc, 'tr');
  const totals: [string, boolean][] = [
    ['Total (excluding cancelled)', false],
    ['', false],
    ['', false],
    ['', false],
    [formatMoney(amount), true],
    [formatMoney(paid), true],
    [formatMoney(amount - paid), true],
    ['', false],
    ['', false],
  ];
  for (const [c, num] of totals) foot.appendChild(el(doc, 'td', c, num ? 'n' : undefined));
  table.appendChild(el(doc, 'tfoot')).appendChild(foot);
  doc.body.appendChild(table);
}

/**
 * Print Bills (Quick Actions): every bill matching the current filters as one printable list with
 * totals, e.g. the day's bills at closing. The window opens inside the click; rows fill in after.
 */
export async function printBillsList(filters: BillFilters, fmt: LabFormat): Promise<void> {
  const w = window.open('', '_blank');
  if (!w) {
    notify.error('Print Error', 'Unable to open print window');
    return;
  }
  w.document.title = 'Bills List';
  w.document.body.textContent = 'Preparing the bills list for printing...';
  try {
    const bills: Bill[] = [];
    let total = 0;
    for (let page = 1; bills.length < MAX_ROWS; page++) {
      const res = await fetchBillPage({ ...filters, page, limit: PAGE });
      bills.push(...res.bills);
      total = res.total;
      if (!res.hasNextPage) break;
    }
    render(w, bills, total, filters, fmt);
    w.focus();
    w.print();
  } catch (err) {
    w.close();
    notify.error('Print Error', errorMessage(err));
  }
}
