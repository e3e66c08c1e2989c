import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { create as createFont, type Font } from 'fontkit';
import { enableScripts } from './scripts.js';

const require = createRequire(import.meta.url);

/** DejaVu Sans ships with the package (npm dejavu-fonts-ttf): it has the rupee sign, which PDF's built-in Helvetica lacks. */
export const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

/**
 * The fonts, parsed once. pdfkit accepts a parsed fontkit font in place of a file; reading and
 * parsing the TTF files again for every document was most of a bill PDF's time. Each document
 * still embeds its own subset of the glyphs it uses.
 */
let parsed: { regular: Font; bold: Font } | null = null;
function fonts(): { regular: PDFKit.Mixins.PDFFontSource; bold: PDFKit.Mixins.PDFFontSource } {
  parsed ??= { regular: createFont(readFileSync(FONTS.regular)), bold: createFont(readFileSync(FONTS.bold)) };
  // The type says file sources only; pdfkit's PDFFontFactory.open also takes a parsed font (it has layout()).
  return parsed as unknown as { regular: PDFKit.Mixins.PDFFontSource; bold: PDFKit.Mixins.PDFFontSource };
}

export function newDocument(opts: {
  size?: PDFKit.PDFDocumentOptions['size'];
  layout?: PDFKit.PDFDocumentOptions['layout'];
  margin?: number;
  title: string;
  author?: string;
  /**
   * The document's creation time (ISO). pdfkit otherwise stamps the moment of rendering, which also
   * seeds the file's ID: with the record's own time, the same record renders to the same bytes.
   */
  createdAt?: string;
}) {
  const doc = new PDFDocument({
    size: opts.size ?? 'A4',
    layout: opts.layout ?? 'portrait',
    margin: opts.margin ?? 40,
    bufferPages: true,
    info: {
      Title: opts.title,
      Author: opts.author ?? 'lims',
      Creator: 'lims',
      ...(opts.createdAt && { CreationDate: new Date(opts.createdAt) }),
    },
  });
  doc.registerFont('regular', fonts().regular);
  doc.registerFont('bold', fonts().bold);
  enableScripts(doc, parsed!);
  doc.font('regular');
  return doc;
}

/** Collects a pdfkit document into one Buffer. */
export function toBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** "Page x of y" on every page, written once all pages exist. */
export function numberPages(doc: PDFKit.PDFDocument, footer: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.height - 30;
    const oldBottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(7.5).fillColor('#666666');
    doc.text(footer, 40, bottom, { width: doc.page.width - 80, align: 'left', lineBreak: false });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, 40, bottom, {
      width: doc.page.width - 80,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = oldBottomMargin;
  }
  doc.fillColor('#000000');
}
