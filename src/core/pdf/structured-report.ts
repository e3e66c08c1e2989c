import {
  GROWTH_WORDS,
  INTERPRETATION_WORDS,
  formatCount,
  paramsBySection,
  referenceText,
  templateById,
} from '../../shared/templates/index.js';
import type { StructuredOut } from '../../shared/schemas/results.js';
import type { RowPiece } from './report-rows.js';
import { hRule } from './blocks.js';

/**
 * A structured result printed under its report line as tables: a panel's parameters by section
 * (result, unit, reference, flag), or a culture's specimen, growth, organisms and antibiogram
 * (each antibiotic S/I/R in words with its MIC and zone). Each table row is one piece of the
 * report's page plan (report-layout.ts): measured first, drawn where the plan puts it; a section
 * heading and a table's header row keep with the row after them.
 */

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

function rowPiece(
  doc: Doc,
  x0: number,
  cols: Col[],
  cells: string[],
  opts: { head?: boolean; bold?: boolean[] } = {},
): RowPiece {
  const size = opts.head ? 7.5 : 8.5;
  const fontOf = (i: number) => (opts.head || opts.bold?.[i] ? 'bold' : 'regular');
  const heights = cells.map((c, i) =>
    doc
      .font(fontOf(i))
      .fontSize(size)
      .heightOfString(c || ' ', { width: cols[i]!.w - 8 }),
  );
  const h = Math.max(...heights) + 5;
  const total = cols.reduce((sum, c) => sum + c.w, 0);
  return {
    height: h,
    keepWithNext: opts.head === true,
    draw(y: number) {
      if (opts.head) doc.rect(x0, y, total, h).fill(SHADE);
      let x = x0;
      cells.forEach((c, i) => {
        doc
          .font(fontOf(i))
          .fontSize(size)
          .fillColor(opts.head ? GREY : '#000000')
          .text(c, x + 4, y + 2.5, { width: cols[i]!.w - 8, align: cols[i]!.align ?? 'left' });
        x += cols[i]!.w;
      });
      hRule(doc, x0, y + h, total, LINE, 0.4);
      doc.fillColor('#000000');
    },
  };
}

function textPiece(doc: Doc, x: number, width: number, text: string, kind: 'heading' | 'remark'): RowPiece {
  const font = kind === 'heading' ? 'bold' : 'regular';
  const size = kind === 'heading' ? 8.5 : 7.5;
  doc.font(font).fontSize(size);
  const h = doc.heightOfString(text, { width }) + (kind === 'heading' ? 6 : 4);
  return {
    height: h,
    keepWithNext: kind === 'heading',
    draw(y: number) {
      doc
        .font(font)
        .fontSize(size)
        .fillColor(kind === 'heading' ? '#000000' : GREY)
        .text(text, x, y + (kind === 'heading' ? 4 : 3), { width });
      doc.fillColor('#000000');
    },
  };
}

function panelPieces(doc: Doc, left: number, width: number, s: StructuredOut): RowPiece[] {
  const t = templateById(s.template);
  if (!t || t.kind !== 'panel' || !s.values) return [];
  const x0 = left + 10;
  const w = width - 10;
  const cols: Col[] = [
    { h: 'Parameter', w: w - 110 - 80 - 120 - 60 },
    { h: 'Result', w: 110 },
    { h: 'Unit', w: 80 },
    { h: 'Reference', w: 120 },
    { h: 'Flag', w: 60 },
  ];
  const out: RowPiece[] = [];
  for (const section of paramsBySection(t)) {
    const rows = section.params.filter((p) => s.values![p.key] !== undefined);
    if (!rows.length) continue;
    out.push(textPiece(doc, x0, w, section.title, 'heading'));
    out.push(
      rowPiece(
        doc,
        x0,
        cols,
        cols.map((c) => c.h),
        { head: true },
      ),
    );
    for (const p of rows) {
      const flag = s.flags?.[p.key] ?? null;
      const off = flag !== null && flag !== 'normal';
      const unit = p.kind === 'text' ? '' : (p.unit ?? '');
      out.push(
        rowPiece(
          doc,
          x0,
          cols,
          [p.label, s.values![p.key]!, unit, referenceText(p), flag ? (FLAG_WORDS[flag] ?? flag) : ''],
          { bold: [false, off, false, false, off] },
        ),
      );
    }
  }
  if (t.source) out.push(textPiece(doc, x0, w, t.source, 'remark'));
  return out;
}

function culturePieces(doc: Doc, left: number, width: number, s: StructuredOut): RowPiece[] {
  const c = s.culture;
  if (!c) return [];
  const x0 = left + 10;
  const w = width - 10;
  const facts: Col[] = [
    { h: '', w: 130 },
    { h: '', w: w - 130 },
  ];
  const growth =
    c.growth === 'no_growth' ? `No growth after ${c.incubation_hours ?? '—'} h of incubation` : GROWTH_WORDS[c.growth];
  const out: RowPiece[] = [
    rowPiece(doc, x0, facts, ['Specimen', c.specimen]),
    rowPiece(doc, x0, facts, ['Culture', growth], { bold: [false, c.growth !== 'no_growth'] }),
  ];
  const cols: Col[] = [
    { h: 'Antibiotic', w: w - 110 - 90 - 80 },
    { h: 'Interpretation', w: 110 },
    { h: 'MIC (mg/L)', w: 90, align: 'right' },
    { h: 'Zone (mm)', w: 80, align: 'right' },
  ];
  c.organisms.forEach((o, i) => {
    const count = o.colony_count != null ? ` · Colony count ${formatCount(o.colony_count)} CFU/mL` : '';
    out.push(
      textPiece(
        doc,
        x0,
        w,
        `Organism ${c.organisms.length > 1 ? `${i + 1} ` : ''}isolated: ${o.name}${count}`,
        'heading',
      ),
    );
    if (!o.antibiotics.length) {
      out.push(textPiece(doc, x0, w, 'No antibiotic sensitivity reported.', 'remark'));
      return;
    }
    out.push(
      rowPiece(
        doc,
        x0,
        cols,
        cols.map((x) => x.h),
        { head: true },
      ),
    );
    for (const ab of o.antibiotics) {
      const resistant = ab.interpretation === 'R';
      out.push(
        rowPiece(
          doc,
          x0,
          cols,
          [
            ab.name,
            INTERPRETATION_WORDS[ab.interpretation],
            ab.mic != null ? String(ab.mic) : '—',
            ab.zone != null ? String(ab.zone) : '—',
          ],
          { bold: [resistant, resistant, false, false] },
        ),
      );
    }
  });
  if (c.organisms.some((o) => o.antibiotics.length))
    out.push(
      textPiece(
        doc,
        x0,
        w,
        'S = Sensitive, I = Intermediate (susceptible, increased exposure), R = Resistant.',
        'remark',
      ),
    );
  if (c.comment) out.push(textPiece(doc, x0, w, `Comment: ${c.comment}`, 'remark'));
  return out;
}

/** A structured result's tables as pieces of the report's page plan, in the order they print. */
export function structuredPieces(doc: Doc, left: number, width: number, s: StructuredOut): RowPiece[] {
  return s.culture ? culturePieces(doc, left, width, s) : panelPieces(doc, left, width, s);
}
