/** The part of fontkit (pdfkit's font engine) that lims uses: parse a font file once. */
declare module 'fontkit' {
  export interface Font {
    layout(text: string, ...args: never[]): unknown;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Uint8Array, postscriptName?: string): Font;
}
