import type { OrganizationRow } from '../settings/organization.js';
import { barcodePng } from './barcode.js';
import { newDocument, numberPages, toBuffer } from './document.js';
import { formatLabDateTime } from './format.js';
import QRCode from 'qrcode';
import { DEPARTMENTS, DEPARTMENT_LABELS, type Department } from '../../shared/schemas/lab-reports.js';
import { drawStructured } from './structured-report.js';
import type { StructuredOut } from '../../shared/schemas/results.js';

/** A department's report template (src/core/lab-reports), as the PDF needs it. */
export interface PdfTemplate {
  group_by: string;
  header_text: string | null;
  footer_text: string | null;
  interpretation_notes: string | null;
  signatory_name: string | null;
  signatory_qualification: string | null;
  signatory_registration: string | null;
  signature_base64: string | null;
}

/** One test on the report. "final" lines carry a verified value; the others carry none. */
export interface ReportLine {
  test_name: string;
  state: 'final' | 'unverified' | 'awaited';
  value: string | null;
  unit: string | null;
  normal_range: string | null;
  flag: string | null;
  critical: boolean;
  verified_by: string | null;
  verified_at: string | null;
  notes: string | null;
  amendments: { at: string; by: string | null; old_value: string | null; old_unit: string | null; reason: string }[];
  department: Department;
  category: string | null;
  method: string | null;
  /** A verified structured result: printed as tables under its line (structured-report.ts). */
  structured?: StructuredOut | null;
}

export interface LabReportInput {
  org: OrganizationRow;
  patient: { name: string; patient_number: string; age: number | null; sex: string | null; phone: string | null };
  /** The referring doctor (the doctor on the sample's bill); null prints "Self". */
  doctor: string | null;
  sample: {
    code: string;
    barcode: string | null;
    type: string;
    status: string;
    collected_at: string | null;
    /** Condition of the specimen on receipt, as recorded; null: not recorded. */
    condition: string | null;
  };
  /** "NABL · Certificate No. MC-1234", from the lab's report settings; null: not accredited. */
  accreditation: string | null;
  templates: Map<Department, PdfTemplate>;
  /** The signed verification link the QR code opens; null: no address known (no QR). */
  verify_url: string | null;
  /** When the report was released (the verification that completed it); null while results are awaited. */
  reported_at: string | null;
  /** 1 for the first print or download of this report, 2 for the first reprint... */
  print_number: number;
  lines: ReportLine[];
}

const GREY = '#555555';
const LINE = '#cccccc';
const RED = '#a1001a';

const FLAG_TEXT: Record<string, string> = { high: 'H', low: 'L', abnormal: 'Abnormal', normal: '' };

/** Final when every test has a verified value; partial while some are still awaited or unverified. */
function reportTitle(lines: ReportLine[]): string {
  const final = lines.filter((l) => l.state === 'final').length;
  if (lines.length > 0 && final === lines.length) return 'LABORATORY REPORT';
  if (final === 0) return 'LABORATORY REPORT — NO VERIFIED RESULTS YET';
  return 'LABORATORY REPORT — PARTIAL (some results awaited)';
}

/** The printable lab report: lab header, patient and sample blocks with barcode, results table, page x of y. */
export async function labReportPdf(input: LabReportInput): Promise<Buffer> {
  const { org, patient, sample, lines } = input;
  const doc = newDocument({ title: `Lab report ${sample.code} — ${patient.name}`, author: org.name });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const when = (iso: string | null) => (iso ? formatLabDateTime(iso, org.date_format, org.timezone) : '—');
  const bottomLimit = () => doc.page.height - doc.page.margins.bottom - 30;

  // Lab header
  doc.font('bold').fontSize(16).text(org.name, left, 40, { width, align: 'center' });
  doc.font('regular').fontSize(8.5).fillColor(GREY);
  const contact = [
    org.address,
    [org.phone && `Phone: ${org.phone}`, org.email && `Email: ${org.email}`].filter(Boolean).join('   '),
    input.accreditation,
  ].filter(Boolean);
  for (const line of contact) doc.text(line as string, { width, align: 'center' });
  doc.fillColor('#000000').moveDown(0.5);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .strokeColor('#333333')
    .lineWidth(1)
    .stroke();
  doc.moveDown(0.4);
  doc.font('bold').fontSize(12).text(reportTitle(lines), left, doc.y, { width, align: 'center' });
  doc.moveDown(0.5);

  // Patient and sample blocks
  const blockY = doc.y;
  const half = width / 2 - 8;
  const blockH = 122;
  const block = (x: number, title: string, rows: [string, string][]) => {
    doc.roundedRect(x, blockY, half, blockH, 4).strokeColor(LINE).lineWidth(0.8).stroke();
    doc
      .font('bold')
      .fontSize(9)
      .fillColor('#000000')
      .text(title, x + 8, blockY + 6, { width: half - 16 });
    let y = blockY + 20;
    for (const [k, v] of rows) {
      doc
        .font('regular')
        .fontSize(8.5)
        .fillColor(GREY)
        .text(k, x + 8, y, { width: 78 });
      doc.fillColor('#000000').text(v, x + 88, y, { width: half - 96, height: 11, ellipsis: true, lineBreak: false });
      y += 13;
    }
  };
  block(left, 'Patient', [
    ['Name', patient.name],
    ['Patient ID', patient.patient_number],
    ['Age / Sex', `${patient.age === null ? '—' : `${patient.age} yrs`} / ${patient.sex ?? '—'}`],
    ['Phone', patient.phone ?? '—'],
    ['Referred by', input.doctor ?? 'Self'],
  ]);
  const sx = left + half + 16;
  block(sx, 'Sample', [
    ['Sample ID', sample.code],
    ['Sample type', sample.type],
    ['Collected', when(sample.collected_at)],
    ['Reported', input.reported_at ? when(input.reported_at) : 'Interim: results awaited'],
    ['Condition', sample.condition ?? 'Not recorded'],
  ]);
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
  doc.y = blockY + blockH + 12;

  // Results table
  const cols = [
    { h: 'Test', w: width - 92 - 56 - 110 - 80, align: 'left' as const },
    { h: 'Result', w: 92, align: 'left' as const },
    { h: 'Unit', w: 56, align: 'left' as const },
    { h: 'Reference Range', w: 110, align: 'left' as const },
    { h: 'Flag', w: 80, align: 'left' as const },
  ];
  const headerRow = () => {
    const y = doc.y;
    doc.rect(left, y, width, 18).fill('#eeeeee').fillColor('#000000');
    let x = left;
    doc.font('bold').fontSize(8.5);
    for (const c of cols) {
      doc.text(c.h, x + 4, y + 5, { width: c.w - 8, align: c.align });
      x += c.w;
    }
    doc.y = y + 18;
  };
  const newPage = () => {
    doc.addPage();
    // Every page names whose report it is, in case pages are separated.
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(GREY)
      .text(`${patient.name} · ${patient.patient_number} · Sample ${sample.code} (continued)`, left, 40, { width });
    doc.fillColor('#000000');
    doc.y = 58;
    headerRow();
  };
  headerRow();

  const drawLine = (l: ReportLine) => {
    const abnormal = l.state === 'final' && l.flag !== null && l.flag !== 'normal';
    const valueText =
      l.state === 'final' ? (l.value ?? '') : l.state === 'unverified' ? 'Awaiting verification' : 'Result awaited';
    const flagText =
      l.state === 'final'
        ? [l.flag ? (FLAG_TEXT[l.flag] ?? l.flag) : '', l.critical ? 'CRITICAL' : ''].filter(Boolean).join(' ')
        : '';
    const detail: string[] = [];
    if (l.state === 'final' && l.verified_by) detail.push(`Verified by ${l.verified_by} on ${when(l.verified_at)}`);
    if (l.method) detail.push(`Method: ${l.method}`);
    if (l.notes) detail.push(`Note: ${l.notes}`);
    for (const a of l.amendments) {
      detail.push(
        `Amended on ${when(a.at)}${a.by ? ` by ${a.by}` : ''}: earlier value ${a.old_value ?? '—'}${a.old_unit ? ` ${a.old_unit}` : ''}. Reason: ${a.reason}`,
      );
    }
    const cells = [l.test_name, valueText, l.unit ?? '', l.normal_range ?? '', flagText];
    doc.font('regular').fontSize(9);
    const mainH = Math.max(
      ...cells.map((c, i) =>
        doc
          .font(i === 1 && abnormal ? 'bold' : 'regular')
          .fontSize(i === 1 && l.state !== 'final' ? 8 : 9)
          .heightOfString(c, { width: cols[i]!.w - 8 }),
      ),
    );
    doc.font('regular').fontSize(7.5);
    const detailH = detail.reduce((h, d) => h + doc.heightOfString(d, { width: width - 12 }) + 1, 0);
    const h = mainH + 8 + (detailH ? detailH + 3 : 0);
    if (doc.y + h > bottomLimit()) newPage();
    const y = doc.y;
    let x = left;
    cells.forEach((c, i) => {
      const bold = (i === 1 || i === 4) && abnormal;
      const colour = l.critical && (i === 1 || i === 4) ? RED : i === 1 && l.state !== 'final' ? GREY : '#000000';
      doc
        .font(bold || (i === 4 && l.critical) ? 'bold' : 'regular')
        .fontSize(i === 1 && l.state !== 'final' ? 8 : 9)
        .fillColor(colour);
      doc.text(c, x + 4, y + 4, { width: cols[i]!.w - 8, align: cols[i]!.align });
      x += cols[i]!.w;
    });
    let dy = y + mainH + 6;
    doc.font('regular').fontSize(7.5).fillColor(GREY);
    for (const d of detail) {
      doc.text(d, left + 8, dy, { width: width - 12 });
      dy = doc.y + 1;
    }
    doc.fillColor('#000000');
    const end = y + h;
    doc
      .moveTo(left, end)
      .lineTo(left + width, end)
      .strokeColor(LINE)
      .lineWidth(0.5)
      .stroke();
    doc.y = end;
    if (l.state === 'final' && l.structured) drawStructured(doc, { left, width, bottomLimit, newPage }, l.structured);
  };
  const note = (text: string, bold = false) => {
    doc.font(bold ? 'bold' : 'regular').fontSize(bold ? 9 : 7.5);
    const h = doc.heightOfString(text, { width: width - 8 }) + 6;
    if (doc.y + h > bottomLimit()) newPage();
    doc.fillColor(bold ? '#000000' : GREY).text(text, left + 4, doc.y + 4, { width: width - 8 });
    doc.fillColor('#000000');
    doc.y += 2;
  };

  // One section per department, in the templates' order; inside it, by catalogue category unless the
  // department's template says otherwise. Header text and interpretation notes come from the template.
  for (const dept of DEPARTMENTS) {
    const mine = lines.filter((l) => l.department === dept);
    if (!mine.length) continue;
    const tpl = input.templates.get(dept);
    note(DEPARTMENT_LABELS[dept].toUpperCase(), true);
    if (tpl?.header_text) note(tpl.header_text);
    const groups = new Map<string, ReportLine[]>();
    for (const l of mine) {
      const key = tpl?.group_by === 'none' ? '' : (l.category ?? '');
      groups.set(key, [...(groups.get(key) ?? []), l]);
    }
    for (const [category, group] of groups) {
      if (category && category.toLowerCase() !== DEPARTMENT_LABELS[dept].toLowerCase()) note(category);
      for (const l of group) drawLine(l);
    }
    if (tpl?.interpretation_notes) note(`Interpretation: ${tpl.interpretation_notes}`);
  }
  if (!lines.length) {
    doc
      .font('regular')
      .fontSize(9)
      .fillColor(GREY)
      .text('No tests were ordered on this sample.', left + 4, doc.y + 6, { width });
    doc.fillColor('#000000');
  }

  // Legend and closing lines
  if (doc.y + 60 > bottomLimit()) newPage();
  doc.moveDown(0.8);
  doc.font('regular').fontSize(7.5).fillColor(GREY);
  doc.text(
    'H = above the reference range, L = below it, Abnormal = differs from the expected result, CRITICAL = beyond the critical limits (the clinician must be informed).',
    left,
    doc.y,
    { width },
  );
  doc.text(
    'Only verified results are reported. "Awaiting verification": a result is entered but not yet checked; "Result awaited": not yet tested.',
    left,
    doc.y,
    { width },
  );
  // Authorised signatories: one per department on the report, from its template.
  const onReport = DEPARTMENTS.filter((d) => lines.some((l) => l.department === d));
  const signers = onReport.map((d) => ({ d, t: input.templates.get(d) })).filter((x) => x.t?.signatory_name);
  const qr = input.verify_url ? await QRCode.toBuffer(input.verify_url, { margin: 1, width: 160 }) : null;
  const closingH = Math.max(signers.length ? 78 : 24, qr ? 90 : 0) + 40;
  if (doc.y + closingH > bottomLimit()) newPage();
  doc.moveDown(0.8);
  const closeY = doc.y;
  const qrW = qr ? 78 : 0;
  const signW = signers.length ? Math.min(160, (width - qrW - 10) / signers.length) : 0;
  signers.forEach(({ d, t }, i) => {
    const x = left + i * signW;
    if (t!.signature_base64) {
      try {
        doc.image(Buffer.from(t!.signature_base64, 'base64'), x, closeY, { fit: [signW - 12, 30] });
      } catch {
        // An image pdfkit cannot draw (a damaged file) leaves the space blank; the name still prints.
      }
    }
    doc
      .moveTo(x, closeY + 34)
      .lineTo(x + signW - 12, closeY + 34)
      .strokeColor('#333333')
      .lineWidth(0.5)
      .stroke();
    doc
      .font('bold')
      .fontSize(8)
      .fillColor('#000000')
      .text(t!.signatory_name!, x, closeY + 37, { width: signW - 12 });
    doc.font('regular').fontSize(7).fillColor(GREY);
    doc.text(t!.signatory_qualification ?? '', x, doc.y, { width: signW - 12 });
    doc.text(`Reg. No. ${t!.signatory_registration ?? ''}`, x, doc.y, { width: signW - 12 });
    doc.text(`Authorised Signatory · ${DEPARTMENT_LABELS[d]}`, x, doc.y, { width: signW - 12 });
  });
  if (!signers.length) {
    doc
      .font('regular')
      .fontSize(7.5)
      .fillColor(GREY)
      .text(
        'Results verified electronically by the staff named above. No authorised signatory is set up for this department.',
        left,
        closeY,
        { width: width - qrW - 10 },
      );
  }
  if (qr) {
    doc.image(qr, left + width - 72, closeY, { fit: [72, 72] });
    doc
      .font('regular')
      .fontSize(6.5)
      .fillColor(GREY)
      .text('Scan to verify this report', left + width - 82, closeY + 74, { width: 92, align: 'center' });
  }
  doc.y = closeY + closingH - 34;
  const footers = onReport.map((d) => input.templates.get(d)?.footer_text).filter((f): f is string => Boolean(f));
  doc.font('regular').fontSize(7.5).fillColor(GREY);
  for (const f of [...new Set(footers)]) doc.text(f, left, doc.y, { width, align: 'center' });
  doc
    .font('bold')
    .fontSize(8.5)
    .fillColor('#000000')
    .text('— End of report —', left, doc.y + 4, { width, align: 'center' });
  doc.fillColor('#000000');

  const reported = input.reported_at ? `reported ${when(input.reported_at)}` : 'interim report';
  const copy = input.print_number > 1 ? ` · reprint ${input.print_number - 1}` : '';
  numberPages(doc, `${org.name} · ${patient.name} · ${sample.code} · ${reported}${copy}`);
  return toBuffer(doc);
}
