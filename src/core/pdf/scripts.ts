import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create as createFont, type Font } from 'fontkit';
import { DomainError } from '../errors.js';

const require = createRequire(import.meta.url);

/**
 * The scripts of India in PDFs. DejaVu Sans (the documents' font) has no Indic glyphs, so a name
 * typed as "रमेश कुमार" printed as empty boxes. Each Indic script gets its Noto Sans font (npm
 * @fontsource packages, WOFF; fontkit shapes conjuncts and vowel signs with the fonts' OpenType
 * tables), chosen per run of text: Latin letters, digits and punctuation stay in DejaVu. A character
 * no font covers is refused with a clear error rather than printed as a box.
 */
const SCRIPTS = [
  { id: 'devanagari', from: 0x0900, to: 0x097f, pkg: 'devanagari' },
  { id: 'bengali', from: 0x0980, to: 0x09ff, pkg: 'bengali' },
  { id: 'gurmukhi', from: 0x0a00, to: 0x0a7f, pkg: 'gurmukhi' },
  { id: 'gujarati', from: 0x0a80, to: 0x0aff, pkg: 'gujarati' },
  { id: 'oriya', from: 0x0b00, to: 0x0b7f, pkg: 'oriya' },
  { id: 'tamil', from: 0x0b80, to: 0x0bff, pkg: 'tamil' },
  { id: 'telugu', from: 0x0c00, to: 0x0c7f, pkg: 'telugu' },
  { id: 'kannada', from: 0x0c80, to: 0x0cff, pkg: 'kannada' },
  { id: 'malayalam', from: 0x0d00, to: 0x0d7f, pkg: 'malayalam' },
  // Vedic extensions and the Devanagari extended block are drawn with Devanagari.
  { id: 'devanagari', from: 0x1cd0, to: 0x1cff, pkg: 'devanagari' },
  { id: 'devanagari', from: 0xa8e0, to: 0xa8ff, pkg: 'devanagari' },
] as const;

type ScriptId = (typeof SCRIPTS)[number]['id'];
type Weight = 'regular' | 'bold';

/** Zero-width joiners, the danda and double danda belong to the Indic run around them. */
const JOINERS = new Set([0x200c, 0x200d, 0x0964, 0x0965]);

function scriptOf(cp: number): ScriptId | null {
  for (const s of SCRIPTS) if (cp >= s.from && cp <= s.to) return s.id;
  return null;
}

const parsed = new Map<string, Font>();
function indicFont(script: ScriptId, weight: Weight): Font {
  const key = `${script}-${weight}`;
  let font = parsed.get(key);
  if (!font) {
    const file = require.resolve(
      `@fontsource/noto-sans-${script}/files/noto-sans-${script}-${script}-${weight === 'bold' ? 700 : 400}-normal.woff`,
    );
    font = createFont(readFileSync(file));
    skipNullAnchors(font);
    parsed.set(key, font);
  }
  return font;
}

/**
 * fontkit 2.0.4 reads a mark's anchor on a base glyph without checking that the font gives one: the
 * Noto Sans Malayalam and Gurmukhi fonts leave some anchors NULL (allowed by OpenType: "this base
 * takes no mark of this class"), and layout threw "Cannot read properties of null (reading
 * 'xCoordinate')". As HarfBuzz does, such a mark is left where it is. Patched once on the GPOS
 * processor's prototype of the fontkit build that parsed these fonts.
 */
function skipNullAnchors(font: Font): void {
  font.layout('');
  const gpos = (font as unknown as { _layoutEngine?: { engine?: { GPOSProcessor?: object | null } } })._layoutEngine
    ?.engine?.GPOSProcessor;
  if (!gpos) return;
  const proto = Object.getPrototypeOf(gpos) as {
    applyAnchor: (mark: { markAnchor: unknown }, base: unknown, index: number) => void;
    limsNullAnchors?: boolean;
  };
  if (proto.limsNullAnchors) return;
  const apply = proto.applyAnchor;
  proto.applyAnchor = function (mark, base, index) {
    if (!base || !mark?.markAnchor) return;
    apply.call(this, mark, base, index);
  };
  proto.limsNullAnchors = true;
}

export interface Run {
  text: string;
  /** null: the document's own font (DejaVu). */
  script: ScriptId | null;
}

/** Splits text into runs of one script; spaces and joiners stay with the Indic run they sit in. */
export function scriptRuns(text: string): Run[] {
  const runs: Run[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = runs.at(-1);
    let script = scriptOf(cp);
    if (script === null && last?.script && (JOINERS.has(cp) || ch === ' ')) script = last.script;
    if (last && last.script === script) last.text += ch;
    else runs.push({ text: ch, script });
  }
  // A space that ended an Indic run before a Latin one moves back to the Latin side (DejaVu has it).
  return runs;
}

export function hasIndic(text: string): boolean {
  for (const ch of text) if (scriptOf(ch.codePointAt(0)!) !== null) return true;
  return false;
}

export class UnprintableTextError extends DomainError {
  constructor(text: string, chars: string[]) {
    super(
      422,
      'UNPRINTABLE_TEXT',
      `"${text.slice(0, 60)}" contains characters this lab cannot print (${chars.join(' ')}); correct the text and print again`,
    );
  }
}

type Doc = PDFKit.PDFDocument;
type TextFn = Doc['text'];

/**
 * Makes a document print Indic text: doc.text and doc.widthOfString split a string into script runs
 * and draw each in its font (continued on the same line), and refuse characters no font has. Text
 * without Indic letters takes the original path unchanged.
 */
export function enableScripts(doc: Doc, base: Record<Weight, Font>): void {
  let weight: Weight = 'regular';
  const font = doc.font.bind(doc);
  doc.font = ((src: string, ...rest: unknown[]) => {
    if (src === 'regular' || src === 'bold') weight = src;
    return (font as (...a: unknown[]) => Doc)(src, ...rest);
  }) as Doc['font'];
  const registered = new Set<string>();
  const fontName = (script: ScriptId) => {
    const name = `${script}-${weight}`;
    if (!registered.has(name)) {
      // The type says file sources only; pdfkit also takes a parsed fontkit font (as document.ts does).
      doc.registerFont(name, indicFont(script, weight) as unknown as PDFKit.Mixins.PDFFontSource);
      registered.add(name);
    }
    return name;
  };
  const refuseUnprintable = (text: string) => {
    const missing = new Set<string>();
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp < 0x20 || JOINERS.has(cp)) continue;
      const s = scriptOf(cp);
      const ok = s ? indicFont(s, weight).hasGlyphForCodePoint(cp) : base[weight].hasGlyphForCodePoint(cp);
      if (!ok) missing.add(ch);
    }
    if (missing.size) throw new UnprintableTextError(text, [...missing]);
  };

  const text = doc.text.bind(doc) as (...a: unknown[]) => Doc;
  doc.text = ((value: unknown, ...rest: unknown[]) => {
    const str = typeof value === 'string' ? value : null;
    if (str === null) return text(value, ...rest);
    refuseUnprintable(str);
    if (!hasIndic(str)) return text(value, ...rest);

    const [x, y, options] =
      typeof rest[0] === 'number'
        ? (rest as [number, number?, PDFKit.Mixins.TextOptions?])
        : [undefined, undefined, rest[0] as PDFKit.Mixins.TextOptions | undefined];
    const runs = scriptRuns(str);
    const keep = weight;
    runs.forEach((run, i) => {
      font(run.script ? fontName(run.script) : keep);
      const opts = { ...options, continued: i < runs.length - 1 ? true : (options?.continued ?? false) };
      // Indic glyphs are in visual order (a vowel sign drawn before its consonant); ActualText
      // gives copy, search and screen readers the text as typed.
      if (run.script) doc.markContent('Span', { actual: run.text } as PDFKit.Mixins.MarkingOptions);
      if (i === 0 && x !== undefined) text(run.text, x, y, opts);
      else text(run.text, opts);
      if (run.script) doc.endMarkedContent();
    });
    font(keep);
    return doc;
  }) as TextFn;

  const width = doc.widthOfString.bind(doc);
  // pdfkit measures words with widthOfString while it lays a run out in the run's font, so the
  // font in use is put back exactly as it was (not to "regular"), or the run would be drawn in DejaVu.
  const state = doc as unknown as { _font: unknown; _fontSource: unknown; _fontFamily: unknown };
  doc.widthOfString = ((str: string, options?: PDFKit.Mixins.TextOptions) => {
    if (!hasIndic(str)) return width(str, options);
    const saved = { _font: state._font, _fontSource: state._fontSource, _fontFamily: state._fontFamily };
    let total = 0;
    for (const run of scriptRuns(str)) {
      font(run.script ? fontName(run.script) : weight);
      total += width(run.text, options);
    }
    Object.assign(state, saved);
    return total;
  }) as Doc['widthOfString'];
}
