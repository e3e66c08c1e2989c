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
