import {
  GROWTH_WORDS,
  INTERPRETATION_WORDS,
  formatCount,
  paramsBySection,
  referenceText,
  templateById,
} from '../../shared/templates/index.js';
import type { StructuredOut } from '../../shared/schemas/results.js';

/**
 * A structured result printed under its report line as tables: a panel's parameters by section
 * (result, unit, reference, flag), or a culture's specimen, growth, organisms and antibiogram
 * (each antibiotic S/I/R in words with its MIC and zone). The report (report.ts) hands it the
 * page geometry and its own page break, so a long table continues with the page's header.
 */

export interface TableArea {
  left: number;
  width: number;
  bottomLimit: () => number;
  newPage: () => void;
}

type Doc = PDFKit.PDFDocument;
type Align = 'left' | 'right' | 'center';
interface Col {
  h: string;
  w: number;
  align?: Align;
}

const GREY = '#555555';
const LINE = '#dddddd';
const SHADE = '#f4f4f4';
const FLAG_WORDS: Record<string, string> = { high: 'High', low: 'Low', abnormal: 'Abnormal', normal: '' };

function drawRow(
  doc: Doc,
  a: TableArea,
  x0: number,
  cols: Col[],
  cells: string[],
  opts: { head?: boolean; bold?: boolean[] } = {},
) {
  const size = opts.head ? 7.5 : 8.5;
  const heights = cells.map((c, i) =>
    doc
      .font(opts.head || opts.bold?.[i] ? 'bold' : 'regular')
      .fontSize(size)
      .heightOfString(c || ' ', { width: cols[i]!.w - 8 }),
  );
  const h = Math.max(...heights) + 5;
  if (doc.y + h > a.bottomLimit()) a.newPage();
  const y = doc.y;
  const total = cols.reduce((s, c) => s + c.w, 0);
  if (opts.head) doc.rect(x0, y, total, h).fill(SHADE);
  let x = x0;
  cells.forEach((c, i) => {
    doc
      .font(opts.head || opts.bold?.[i] ? 'bold' : 'regular')
      .fontSize(size)
      .fillColor(opts.head ? GREY : '#000000')
      .text(c, x + 4, y + 2.5, { width: cols[i]!.w - 8, align: cols[i]!.align ?? 'left' });
    x += cols[i]!.w;
  });
  doc
    .moveTo(x0, y + h)
    .lineTo(x0 + total, y + h)
    .strokeColor(LINE)
    .lineWidth(0.4)
    .stroke();
  doc.fillColor('#000000');
  doc.y = y + h;
}

function heading(doc: Doc, a: TableArea, x: number, text: string) {
  doc.font('bold').fontSize(8.5);
  const h = doc.heightOfString(text, { width: a.width }) + 6;
  // A heading is kept with at least two rows of its table.
  if (doc.y + h + 30 > a.bottomLimit()) a.newPage();
  doc.fillColor('#000000').text(text, x, doc.y + 4, { width: a.width - (x - a.left) });
  doc.y += 1;
}

function remark(doc: Doc, a: TableArea, x: number, text: string) {
  doc.font('regular').fontSize(7.5);
  const w = a.width - (x - a.left);
  if (doc.y + doc.heightOfString(text, { width: w }) + 4 > a.bottomLimit()) a.newPage();
  doc.fillColor(GREY).text(text, x, doc.y + 3, { width: w });
  doc.fillColor('#000000');
}

function panelTables(doc: Doc, a: TableArea, s: StructuredOut) {
  const t = templateById(s.template);
  if (!t || t.kind !== 'panel' || !s.values) return;
  const x0 = a.left + 10;
  const w = a.width - 10;
  const cols: Col[] = [
    { h: 'Parameter', w: w - 110 - 80 - 120 - 60 },
    { h: 'Result', w: 110 },
    { h: 'Unit', w: 80 },
    { h: 'Reference', w: 120 },
    { h: 'Flag', w: 60 },
  ];
  for (const section of paramsBySection(t)) {
    const rows = section.params.filter((p) => s.values![p.key] !== undefined);
    if (!rows.length) continue;
    heading(doc, a, x0, section.title);
    drawRow(
      doc,
      a,
      x0,
      cols,
      cols.map((c) => c.h),
      { head: true },
    );
    for (const p of rows) {
      const flag = s.flags?.[p.key] ?? null;
      const off = flag !== null && flag !== 'normal';
      const unit = p.kind === 'text' ? '' : (p.unit ?? '');
      drawRow(
        doc,
        a,
        x0,
        cols,
        [p.label, s.values![p.key]!, unit, referenceText(p), flag ? (FLAG_WORDS[flag] ?? flag) : ''],
        {
          bold: [false, off, false, false, off],
        },
      );
    }
  }
  if (t.source) remark(doc, a, x0, t.source);
}

function cultureTables(doc: Doc, a: TableArea, s: StructuredOut) {
  const c = s.culture;
  if (!c) return;
  const x0 = a.left + 10;
  const w = a.width - 10;
  const facts: Col[] = [
    { h: '', w: 130 },
    { h: '', w: w - 130 },
  ];
  const growth =
    c.growth === 'no_growth' ? `No growth after ${c.incubation_hours ?? '—'} h of incubation` : GROWTH_WORDS[c.growth];
  drawRow(doc, a, x0, facts, ['Specimen', c.specimen]);
  drawRow(doc, a, x0, facts, ['Culture', growth], { bold: [false, c.growth !== 'no_growth'] });
  c.organisms.forEach((o, i) => {
    const count = o.colony_count != null ? ` · Colony count ${formatCount(o.colony_count)} CFU/mL` : '';
    heading(doc, a, x0, `Organism ${c.organisms.length > 1 ? `${i + 1} ` : ''}isolated: ${o.name}${count}`);
    if (!o.antibiotics.length) {
      remark(doc, a, x0, 'No antibiotic sensitivity reported.');
      return;
    }
    const cols: Col[] = [
      { h: 'Antibiotic', w: w - 110 - 90 - 80 },
      { h: 'Interpretation', w: 110 },
      { h: 'MIC (mg/L)', w: 90, align: 'right' },
      { h: 'Zone (mm)', w: 80, align: 'right' },
    ];
    drawRow(
      doc,
      a,
      x0,
      cols,
      cols.map((x) => x.h),
      { head: true },
    );
    for (const ab of o.antibiotics) {
      const resistant = ab.interpretation === 'R';
      drawRow(
        doc,
        a,
        x0,
        cols,
        [
          ab.name,
          INTERPRETATION_WORDS[ab.interpretation],
          ab.mic != null ? String(ab.mic) : '—',
          ab.zone != null ? String(ab.zone) : '—',
        ],
        { bold: [resistant, resistant, false, false] },
      );
    }
  });
  if (c.organisms.some((o) => o.antibiotics.length))
    remark(doc, a, x0, 'S = Sensitive, I = Intermediate (susceptible, increased exposure), R = Resistant.');
  if (c.comment) remark(doc, a, x0, `Comment: ${c.comment}`);
}

/** Draws a structured result's tables at doc.y; leaves doc.y under them. */
export function drawStructured(doc: Doc, a: TableArea, s: StructuredOut): void {
  doc.y += 2;
  if (s.culture) cultureTables(doc, a, s);
  else panelTables(doc, a, s);
  doc.y += 6;
}
