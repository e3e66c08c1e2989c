/**
 * MLLP (the HL7 minimal lower layer protocol): each message is sent as `VT message FS CR`.
 * The decoder takes bytes as they come and hands on whole messages; bytes outside a block are
 * dropped, and a block larger than `maxBytes` is dropped whole (never handed on in part).
 */
export const VT = 0x0b;
export const FS = 0x1c;
export const CR = 0x0d;

export function mllpWrap(text: string): Buffer {
  return Buffer.concat([Buffer.from([VT]), Buffer.from(text, 'utf8'), Buffer.from([FS, CR])]);
}

export class MllpDecoder {
  /** The block's bytes so far, in pieces (joined once at FS: a 4 MiB block in 64 KiB reads is copied once). */
  private parts: Buffer[] = [];
  private size = 0;
  private inBlock = false;
  private skipping = false;

  constructor(
    private readonly onMessage: (bytes: Buffer) => void,
    private readonly onTooLarge: () => void = () => {},
    private readonly maxBytes = 1024 * 1024,
  ) {}

  /** The content of a block begun and not ended (the line closed inside it), else null. */
  pending(): Buffer | null {
    return this.inBlock && !this.skipping ? Buffer.concat(this.parts, this.size) : null;
  }

  private clear() {
    this.parts = [];
    this.size = 0;
  }

  receive(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (!this.inBlock) {
        const start = chunk.indexOf(VT, at);
        if (start === -1) return;
        this.inBlock = true;
        this.skipping = false;
        this.clear();
        at = start + 1;
        continue;
      }
      const end = chunk.indexOf(FS, at);
      const part = chunk.subarray(at, end === -1 ? chunk.length : end);
      // A VT inside a block starts a new one: the sender gave up on the last.
      const restart = part.indexOf(VT);
      if (restart !== -1) {
        this.inBlock = false;
        at += restart;
        continue;
      }
      if (!this.skipping) {
        if (this.size + part.length > this.maxBytes) {
          this.skipping = true;
          this.clear();
          this.onTooLarge();
        } else if (part.length) {
          // A copy: the chunk's memory belongs to the socket.
          this.parts.push(Buffer.from(part));
          this.size += part.length;
        }
      }
      if (end === -1) return;
      this.inBlock = false;
      if (!this.skipping) this.onMessage(Buffer.concat(this.parts, this.size));
      this.clear();
      at = end + 1;
      if (chunk[at] === CR) at += 1;
    }
  }
}
