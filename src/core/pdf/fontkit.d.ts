/** The part of fontkit (pdfkit's font engine) that lims uses: parse a font file once. */
declare module 'fontkit' {
  export interface Font {
    layout: (...args: never[]) => unknown;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
