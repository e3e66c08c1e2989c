import type { CentreStatement } from '../../shared/schemas/centres.js';
import { AGEING_BUCKETS, AGEING_LABELS } from '../../shared/schemas/centres.js';
import { formatMoney } from '../../shared/money.js';
import type { OrganizationRow } from '../settings/service.js';
import { newDocument, numberPages, toBuffer } from './document.js';
import { formatLabDate, formatLabDay } from './format.js';
import type { Col } from './columns.js';
import { ledgerTable, STATEMENT_TABLE as TABLE } from './ledger.js';
import { GREY, contactLines, drawTable, factsRow, letterhead, tableRows } from './blocks.js';

/**
 * A collection centre's monthly statement: the ledger of the period (opening balance, bills,
 * payments, closing balance), what it owed at the end by age, and the period's share between the
 * centre and the lab. Every figure is the statement's own (summed from the rows in core).
 */
export async function centreStatementPdf(org: OrganizationRow, st: CentreStatement): Promise<Buffer> {
  const doc = newDocument({ title: `Statement ${st.centre.name} ${st.from} to ${st.to}`, author: org.name });
  const money = (rupees: number) => formatMoney(Math.round(rupees * 100), org.currency);
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const tz = org.timezone;
  letterhead(doc, { left, width, top: 40 }, org.name, contactLines(org, null));
  doc.font('bold').fontSize(12).text('COLLECTION CENTRE STATEMENT', left, doc.y, { width, align: 'center' });
  doc.moveDown(0.4);
  const c = st.centre;
  doc.font('bold').fontSize(10).text(c.name, left, doc.y, { width });
  doc
    .font('regular')
    .fontSize(8.5)
    .fillColor(GREY)
    .text(
      [
        c.gstin && `GSTIN ${c.gstin}`,
        c.address,
        `${c.credit_days} credit days`,
        c.credit_limit === null ? 'no credit limit' : `credit limit ${money(c.credit_limit)}`,
      ]
        .filter(Boolean)
        .join(' · '),
      { width },
    )
    .text(`Period ${formatLabDay(st.from, org.date_format)} to ${formatLabDay(st.to, org.date_format)}`, { width });
  doc.fillColor('#000000').moveDown(0.6);
  factsRow(
    doc,
    { left, width },
    [
      ['Opening balance', money(st.opening_balance)],
      ['Billed', money(st.billed)],
      ['Paid', money(st.paid)],
      ['Closing balance', money(st.closing_balance)],
    ],
    { valueSize: 11, height: 30 },
  );
  if (c.hold.on_hold && c.hold.reason)
    doc.font('bold').fontSize(8.5).fillColor('#b91c1c').text(`On hold: ${c.hold.reason}`, left, doc.y, { width });
  doc.fillColor('#000000').moveDown(0.4);

  ledgerTable(doc, { left, width }, st, {
    org,
    money,
    amounts: ['Billed', 'Paid'],
    fitBill: true,
  });

  doc.moveDown(1);
  doc
    .font('bold')
    .fontSize(9.5)
    .text(`Owed at ${formatLabDay(st.to, org.date_format)}, by age`, left, doc.y, { width });
  doc.moveDown(0.3);
  const ageCols: Col[] = AGEING_BUCKETS.map((b) => ({
    h: AGEING_LABELS[b],
    w: width / AGEING_BUCKETS.length,
    align: 'right',
  }));
  drawTable(tableRows(doc, { left, width }, ageCols, TABLE), ageCols, [AGEING_BUCKETS.map((b) => money(st.ageing[b]))]);

  doc.moveDown(1);
  doc.font('bold').fontSize(9.5).text('Share of the period’s tests (before GST)', left, doc.y, { width });
  doc.moveDown(0.3);
  const shareCols: Col[] = [
    { h: 'Tests billed', w: width / 3, align: 'right' },
    { h: 'Centre’s share', w: width / 3, align: 'right' },
    { h: 'Lab’s share', w: width / 3, align: 'right' },
  ];
  drawTable(tableRows(doc, { left, width }, shareCols, TABLE), shareCols, [
    [money(st.share.billed), money(st.share.centre), money(st.share.lab)],
  ]);
  doc
    .moveDown(0.6)
    .font('regular')
    .fontSize(7.5)
    .fillColor(GREY)
    .text(
      `${c.share_basis === 'lab_share' ? `The lab keeps ${c.share_percent}%` : `The centre keeps ${c.share_percent}%`} of each test line unless a rule names its test or category. This is the centre's margin on its own patients, not a commission to any doctor.`,
      left,
      doc.y,
      { width },
    );
  numberPages(doc, `${org.name} · ${c.name} · printed ${formatLabDate(new Date().toISOString(), org.date_format, tz)}`);
  return toBuffer(doc);
}
