import QRCode from 'qrcode';
import { barcodePng } from './barcode.js';
import { newDocument, numberPages, toBuffer } from './document.js';
import { formatLabDateTime } from './format.js';
import { boxPair, contactLines, hRule, letterhead } from './blocks.js';
import { planPages, type PlanBlock } from './report-layout.js';
import {
  COLUMN_HEADER_H,
  GREY,
  LINE,
  drawColumnHeader,
  testPieces,
  textPiece,
  type RowPiece,
  type TableContext,
} from './report-rows.js';
import type { LabReportInput, PendingTest, ReportLine } from './report-types.js';
import { DEPARTMENT_LABELS, type Department } from '../../shared/schemas/lab-reports.js';

export type { LabReportInput, Letterhead, PdfTemplate, PendingTest, ReportLine } from './report-types.js';

/**
 * Departments in the order a lab report reads: blood counts first, then chemistry, serology,
 * clinical pathology (urine, stool), and microbiology last (cultures are the slowest and longest).
 */
export const REPORT_ORDER: Department[] = [
  'hematology',
  'biochemistry',
  'immunology',
  'pathology',
  'microbiology',
  'custom',
];

const MM = 72 / 25.4;
const WHY: Record<PendingTest['why'], string> = {
  unverified: 'awaiting verification',
  awaited: 'result awaited',
  rejected: 'sample rejected, to be collected again',
};

function reportTitle(input: LabReportInput): string {
  const { lines, pending } = input;
  const final = lines.filter((l) => l.state === 'final').length;
  if (final === 0) return 'LABORATORY REPORT — NO VERIFIED RESULTS YET';
  if (final === lines.length && !pending.length) return 'LABORATORY REPORT';
  return 'LABORATORY REPORT — PARTIAL (some results awaited)';
}

/** "Verified by A on 02/12/2026 10:30; B on ...": each verifier of the department once, at their latest verification. */
function verifiedBy(lines: ReportLine[], when: (iso: string | null) => string): string | null {
  const latest = new Map<string, string | null>();
  for (const l of lines) {
    if (l.state !== 'final' || !l.verified_by) continue;
    const at = latest.get(l.verified_by);
    if (at === undefined || (l.verified_at && (!at || l.verified_at > at))) latest.set(l.verified_by, l.verified_at);
  }
  if (!latest.size) return null;
  return `Verified by ${[...latest].map(([who, at]) => `${who} on ${when(at)}`).join('; ')}`;
}

/** The printable lab report of a sample or of a visit: header, patient and sample blocks, one section per department, signatures. */
export async function labReportPdf(input: LabReportInput): Promise<Buffer> {
  const { letterhead: lh, patient, samples, lines } = input;
  const ref = input.scope.kind === 'visit' ? `Bill ${input.scope.bill_number}` : `Sample ${samples[0]?.code ?? ''}`;
  const doc = newDocument({ title: `Lab report ${ref} — ${patient.name}`, author: lh.name });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const when = (iso: string | null) => (iso ? formatLabDateTime(iso, lh.date_format, lh.timezone) : '—');
  const ctx: TableContext = { doc, left, width, when };
  // Pre-printed paper carries the lab's letterhead on every sheet: the report leaves that space blank.
  const pageTop = lh.stationery === 'preprinted' ? Math.max(40, lh.preprinted_header_mm * MM) : 40;
  const bottom = doc.page.height - doc.page.margins.bottom - 30;

  // Lab header (plain paper) or the pre-printed sheet's space
  doc.y = pageTop;
  if (lh.stationery === 'letterhead') {
    letterhead(doc, { left, width, top: pageTop }, lh.name, contactLines(lh, lh.accreditation));
  } else if (lh.accreditation) {
    doc.font('regular').fontSize(8).fillColor(GREY).text(lh.accreditation, left, pageTop, { width, align: 'right' });
    doc.fillColor('#000000');
  }
  doc.font('bold').fontSize(12).text(reportTitle(input), left, doc.y, { width, align: 'center' });
  doc.moveDown(0.5);

  // Patient and sample (or visit): fixed boxes, each value on one line.
  const blockY = doc.y;
  const blockH = input.scope.kind === 'sample' ? 122 : 90;
  const patientBox = {
    title: 'Patient',
    rows: [
      ['Name', patient.name],
      ['Patient ID', patient.patient_number],
      ['Age / Sex', `${patient.age ?? '—'} / ${patient.sex ?? '—'}`],
      ['Phone', patient.phone ?? '—'],
      ['Referred by', input.doctor ?? 'Self'],
    ] as [string, string][],
  };
  const boxStyle = { size: 8.5, keyWidth: 78, values: 'clip', noBreak: true } as const;
  const at = { left, width, y: blockY, height: blockH };
  if (input.scope.kind === 'sample') {
    const sample = samples[0]!;
    const { secondX: sx } = boxPair(
      doc,
      at,
      patientBox,
      {
        title: 'Sample',
        rows: [
          ['Sample ID', sample.code],
          ['Sample type', sample.type],
          ['Collected', when(sample.collected_at)],
          ['Reported', sample.reported_at ? when(sample.reported_at) : 'Interim: results awaited'],
          ['Condition', sample.condition ?? 'Not recorded'],
        ],
      },
      boxStyle,
    );
    if (sample.barcode) {
      const png = await barcodePng(sample.barcode, 'code128', { scale: 3, height: 8, text: false });
      const top = blockY + 20 + 5 * 13 + 2;
      doc.image(png, sx + 8, top, { fit: [150, 20] });
      doc
        .font('regular')
        .fontSize(7.5)
        .fillColor('#000000')
        .text(sample.barcode, sx + 8, top + 22, { width: 150, align: 'center', lineBreak: false });
    }
  } else {
    const collected = samples.map((s) => s.collected_at).filter((c): c is string => Boolean(c));
    const reported = samples.map((s) => s.reported_at).filter((r): r is string => Boolean(r));
    boxPair(
      doc,
      at,
      patientBox,
      {
        title: 'Visit',
        rows: [
          ['Bill No.', input.scope.bill_number],
          ['Samples', String(samples.length)],
          ['Collected', collected.length ? when(collected.sort()[0]!) : '—'],
          ['Reported', reported.length ? when(reported.sort().at(-1)!) : 'Interim: results awaited'],
        ],
      },
      boxStyle,
    );
  }
  doc.y = blockY + blockH + 8;
  if (input.scope.kind === 'visit') {
    // Each tube of the visit, so a result can be traced to its sample.
    doc.font('regular').fontSize(7.5).fillColor(GREY);
    for (const s of samples) {
      const state = s.reported_at ? `reported ${when(s.reported_at)}` : 'not yet released';
      const drawn = s.collected_at
        ? `collected ${when(s.collected_at)} · ${state} · condition: ${s.condition ?? 'not recorded'}`
        : 'not collected yet';
      doc.text(`${s.code} · ${s.type} · ${drawn}`, left + 4, doc.y, { width: width - 8 });
    }
    doc.fillColor('#000000');
    doc.y += 4;
  }
  if (input.pending.length) {
    const text = `Pending: ${input.pending.map((p) => `${p.test_name} (${WHY[p.why]})`).join(', ')}. These tests will be reported when their results are verified.`;
    doc.font('bold').fontSize(8.5);
    const h = doc.heightOfString(text, { width: width - 16 }) + 10;
    doc.rect(left, doc.y, width, h).strokeColor(LINE).lineWidth(0.8).stroke();
    doc.fillColor('#000000').text(text, left + 8, doc.y + 5, { width: width - 16 });
    doc.y += 9;
  }
  const firstTop = doc.y + 4;

  // Departments: their pieces measured first, then placed by the layout.
  const depts = REPORT_ORDER.map((d) => ({ d, mine: lines.filter((l) => l.department === d) })).filter(
    (x) => x.mine.length,
  );
  const built = depts.map(({ d, mine }) => {
    const tpl = input.templates.get(d);
    const title = DEPARTMENT_LABELS[d].toUpperCase();
    const heading = textPiece(ctx, title, { bold: true });
    const continued = textPiece(ctx, `${title} (continued)`, { bold: true });
    const headerNote = tpl?.header_text ? textPiece(ctx, tpl.header_text) : null;
    const rows: RowPiece[] = [];
    const groups = new Map<string, ReportLine[]>();
    for (const l of mine) {
      const key = tpl?.group_by === 'none' ? '' : (l.category ?? '');
      groups.set(key, [...(groups.get(key) ?? []), l]);
    }
    for (const [category, group] of groups) {
      // "Haematology" under HEMATOLOGY says nothing new: the British spelling is the same heading.
      const same = (a: string) => a.toLowerCase().replace('ae', 'e');
      if (category && same(category) !== same(DEPARTMENT_LABELS[d]))
        rows.push(textPiece(ctx, category, { keepWithNext: true }));
      for (const l of group) rows.push(...testPieces(ctx, l));
    }
    const tail = [
      tpl?.interpretation_notes ? textPiece(ctx, `Interpretation: ${tpl.interpretation_notes}`) : null,
      ((v) => (v ? textPiece(ctx, v) : null))(verifiedBy(mine, when)),
    ].filter((p): p is RowPiece => p !== null);
    return { heading, continued, headerNote, rows, tail };
  });
  const blocks: PlanBlock[] = built.map((b) => ({
    head: b.heading.height + (b.headerNote?.height ?? 0) + COLUMN_HEADER_H,
    contHead: b.continued.height + COLUMN_HEADER_H,
    rows: b.rows.map((r) => ({ height: r.height, keepWithNext: r.keepWithNext })),
    tail: b.tail.reduce((h, p) => h + p.height, 0),
  }));
  const closing = await closingBlock(doc, input, ctx);
  const plan = planPages(blocks, closing.height, { firstTop, top: pageTop + 18, bottom });

  plan.forEach((page, p) => {
    if (p > 0) {
      doc.addPage();
      // Every page names whose report it is, in case pages are separated.
      doc
        .font('regular')
        .fontSize(8)
        .fillColor(GREY)
        .text(`${patient.name} · ${patient.patient_number} · ${ref}`, left, pageTop, { width, lineBreak: false });
      doc.fillColor('#000000');
    }
    for (const c of page.chunks) {
      const b = built[c.block]!;
      let y = c.y;
      const heads = c.continued ? [b.continued] : [b.heading, ...(b.headerNote ? [b.headerNote] : [])];
      for (const h of heads) {
        h.draw(y);
        y += h.height;
      }
      drawColumnHeader(ctx, y);
      y += COLUMN_HEADER_H;
      for (const r of b.rows.slice(c.from, c.to)) {
        r.draw(y);
        y += r.height;
      }
      if (c.tail)
        for (const t of b.tail) {
          t.draw(y);
          y += t.height;
        }
    }
    if (page.closingY !== null) closing.draw(page.closingY);
  });
  if (!lines.length && !input.pending.length) {
    doc.switchToPage(doc.bufferedPageRange().start);
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(GREY)
      .text('No tests were ordered on this sample.', left + 4, firstTop - 14, { width });
    doc.fillColor('#000000');
  }

  const released = samples.map((s) => s.reported_at).filter((r): r is string => Boolean(r));
  const reported =
    released.length && !input.pending.length && lines.every((l) => l.state === 'final')
      ? `reported ${when(released.sort().at(-1)!)}`
      : 'interim report';
  const copy = input.print_number > 1 ? ` · reprint ${input.print_number - 1}` : '';
  numberPages(doc, `${lh.name} · ${patient.name} · ${ref.replace(/^(Sample|Bill) /, '')} · ${reported}${copy}`);
  return toBuffer(doc);
}

/** Legend, authorised signatories (one per department), QR codes and footers: measured, then drawn where the layout puts them. */
async function closingBlock(doc: PDFKit.PDFDocument, input: LabReportInput, ctx: TableContext) {
  const { left, width } = ctx;
  const legend = [
    'H = above the reference range, L = below it, Abnormal = differs from the expected result, CRITICAL = beyond the critical limits (the clinician must be informed).',
    input.scope.kind === 'visit'
      ? 'Only verified results are reported; tests still in progress are listed as pending at the top.'
      : 'Only verified results are reported. "Awaiting verification": a result is entered but not yet checked; "Result awaited": not yet tested.',
  ];
  const onReport = REPORT_ORDER.filter((d) => input.lines.some((l) => l.department === d && l.state === 'final'));
  const signers = onReport.map((d) => ({ d, t: input.templates.get(d) })).filter((x) => x.t?.signatory_name);
  const qrs = await Promise.all(
    input.samples
      .filter((s) => s.verify_url)
      .map(async (s) => ({ code: s.code, png: await QRCode.toBuffer(s.verify_url!, { margin: 1, width: 160 }) })),
  );
  const sideQr = qrs.length === 1;
  const footers = [
    ...new Set(onReport.map((d) => input.templates.get(d)?.footer_text).filter((f): f is string => Boolean(f))),
  ];
  doc.font('regular').fontSize(7.5);
  const legendH = legend.reduce((h, t) => h + doc.heightOfString(t, { width }), 0);
  const footerH = footers.reduce((h, t) => h + doc.heightOfString(t, { width }), 0);
  const signH = Math.max(signers.length ? 80 : 26, sideQr ? 86 : 0);
  const perRow = Math.max(1, Math.floor(width / 96));
  const qrRowH = qrs.length > 1 ? Math.ceil(qrs.length / perRow) * 92 : 0;
  const height = 10 + legendH + 12 + signH + qrRowH + footerH + 20;

  return {
    height,
    draw(top: number) {
      let y = top + 10;
      doc.font('regular').fontSize(7.5).fillColor(GREY);
      for (const t of legend) {
        doc.text(t, left, y, { width });
        y = doc.y;
      }
      y += 12;
      const qrW = sideQr ? 78 : 0;
      const signW = signers.length ? Math.min(160, (width - qrW - 10) / signers.length) : 0;
      signers.forEach(({ d, t }, i) => {
        const x = left + i * signW;
        if (t!.signature_base64) {
          try {
            doc.image(Buffer.from(t!.signature_base64, 'base64'), x, y, { fit: [signW - 12, 30] });
          } catch {
            // An image pdfkit cannot draw (a damaged file) leaves the space blank; the name still prints.
          }
        }
        hRule(doc, x, y + 34, signW - 12, '#333333', 0.5);
        doc
          .font('bold')
          .fontSize(8)
          .fillColor('#000000')
          .text(t!.signatory_name!, x, y + 37, { width: signW - 12 });
        doc.font('regular').fontSize(7).fillColor(GREY);
        doc.text(t!.signatory_qualification ?? '', x, doc.y, { width: signW - 12 });
        doc.text(`Reg. No. ${t!.signatory_registration ?? ''}`, x, doc.y, { width: signW - 12 });
        doc.text(`Authorised Signatory · ${DEPARTMENT_LABELS[d]}`, x, doc.y, { width: signW - 12 });
      });
      if (!signers.length)
        doc
          .font('regular')
          .fontSize(7.5)
          .fillColor(GREY)
          .text(
            `Results verified electronically by the staff named above. No authorised signatory is set up for ${onReport.length > 1 ? 'these departments' : 'this department'}.`,
            left,
            y,
            { width: width - qrW - 10 },
          );
      const qrAt = (q: (typeof qrs)[number], x: number, qy: number, label: string) => {
        doc.image(q.png, x, qy, { fit: [72, 72] });
        doc
          .font('regular')
          .fontSize(6.5)
          .fillColor(GREY)
          .text(label, x - 10, qy + 74, { width: 92, align: 'center' });
      };
      if (sideQr) qrAt(qrs[0]!, left + width - 72, y, 'Scan to verify this report');
      y += signH;
      if (qrs.length > 1)
        qrs.forEach((q, i) =>
          qrAt(q, left + 10 + (i % perRow) * 96, y + Math.floor(i / perRow) * 92, `Verify ${q.code}`),
        );
      y += qrRowH;
      doc.font('regular').fontSize(7.5).fillColor(GREY);
      for (const f of footers) {
        doc.text(f, left, y, { width, align: 'center' });
        y = doc.y;
      }
      doc
        .font('bold')
        .fontSize(8.5)
        .fillColor('#000000')
        .text('— End of report —', left, y + 4, { width, align: 'center' });
      doc.fillColor('#000000');
    },
  };
}
