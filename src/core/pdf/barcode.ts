import bwipjs from 'bwip-js';

/** Barcode and QR images made here with bwip-js, never fetched from an outside service. */
export type Symbology = 'code128' | 'qrcode';

export function barcodePng(
  text: string,
  kind: Symbology = 'code128',
  opts: { scale?: number; height?: number; text?: boolean } = {},
): Promise<Buffer> {
  if (kind === 'qrcode') return bwipjs.toBuffer({ bcid: 'qrcode', text, scale: opts.scale ?? 4 });
  return bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scale: opts.scale ?? 3,
    height: opts.height ?? 12,
    includetext: opts.text ?? true,
    textxalign: 'center',
  });
}

/**
 * A Code 128 barcode as SVG, bars only (the page writes the text under it): under a kilobyte, so a
 * phone can keep a day's labels with the day and print them without a network.
 */
export function barcodeSvg(text: string): string {
  return bwipjs.toSVG({ bcid: 'code128', text, scale: 2, height: 10 });
}
