/**
 * ASTM E1381 (CLSI LIS1-A) low-level framing: the control characters, the frame checksum, and
 * reading frames out of bytes (a live link, or a captured transcript).
 *
 * A frame is `STX FN text (ETB|ETX) C1 C2 CR LF`: FN is the frame number 0-7 (the first frame of a
 * transmission is 1), the checksum is the sum of the bytes from FN through ETB/ETX, mod 256, as two
 * upper-case hex digits. A frame carries at most 240 characters of text (247 bytes in all); ETB
 * marks a frame whose record continues in the next one, ETX the last frame of a record.
 */
export const STX = 0x02;
export const ETX = 0x03;
export const EOT = 0x04;
export const ENQ = 0x05;
export const ACK = 0x06;
export const NAK = 0x15;
export const ETB = 0x17;
export const CR = 0x0d;
export const LF = 0x0a;

/** The most text one frame may carry (E1381 6.3.1.2), so that a whole frame is at most 247 bytes. */
export const MAX_FRAME_TEXT = 240;
/** The most bytes of a whole frame, STX through LF. */
export const MAX_FRAME_BYTES = 247;
/**
 * Lenient mode's ceiling on one frame: machines that ignore the 247-byte limit (the cobas c311
 * fixture sends 619 bytes, the Sysmex XN-550 2,609) are read up to this size, never beyond.
 */
export const LENIENT_MAX_FRAME_BYTES = 64 * 1024;

/** The checksum of a frame: the sum of its bytes from the frame number through ETB/ETX, mod 256. */
export function checksum(bytes: Uint8Array, from: number, toInclusive: number): string {
  let sum = 0;
  for (let i = from; i <= toInclusive; i++) sum = (sum + bytes[i]!) & 0xff;
  return sum.toString(16).toUpperCase().padStart(2, '0');
}

export interface Frame {
  number: number;
  /** The frame's text, decoded as latin1 (one character per byte, as the line carried it). */
  text: string;
  /** true: the last frame of a record (ETX); false: the record continues in the next frame (ETB). */
  final: boolean;
  /** Bytes of the whole frame as received. */
  size: number;
}

export type FrameResult =
  | { ok: true; frame: Frame }
  | { ok: false; reason: 'checksum' | 'number' | 'too_long' | 'malformed' | 'control_character'; size: number };

export interface FrameOptions {
  /** Accept frames over 247 bytes (up to LENIENT_MAX_FRAME_BYTES) and a missing CR LF after the checksum. */
  lenient: boolean;
}

function isHex(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
}

/**
 * Checks one whole frame (STX first). `bytes` holds exactly the frame: STX through LF (or through the
 * checksum in lenient mode, when the machine sends no CR LF).
 */
export function checkFrame(bytes: Uint8Array, opts: FrameOptions): FrameResult {
  const size = bytes.length;
  if (size < 6 || bytes[0] !== STX) return { ok: false, reason: 'malformed', size };
  if (!opts.lenient && size > MAX_FRAME_BYTES) return { ok: false, reason: 'too_long', size };
  if (size > LENIENT_MAX_FRAME_BYTES) return { ok: false, reason: 'too_long', size };
  let end = size;
  if (bytes[end - 1] === LF && bytes[end - 2] === CR) end -= 2;
  else if (!opts.lenient) return { ok: false, reason: 'malformed', size };
  else if (bytes[end - 1] === CR) end -= 1; // lenient: CR without LF (the Sysmex XN-550 fixture)
  // end now points just past C2
  const terminator = bytes[end - 3];
  if (terminator !== ETX && terminator !== ETB) return { ok: false, reason: 'malformed', size };
  if (!isHex(bytes[end - 2]) || !isHex(bytes[end - 1])) return { ok: false, reason: 'malformed', size };
  const fn = bytes[1]!;
  if (fn < 0x30 || fn > 0x37) return { ok: false, reason: 'number', size };
  const given = String.fromCharCode(bytes[end - 2]!, bytes[end - 1]!).toUpperCase();
  if (checksum(bytes, 1, end - 3) !== given) return { ok: false, reason: 'checksum', size };
  for (let i = 2; i < end - 3; i++) {
    const b = bytes[i]!;
    // Text may not hold the link's own control characters (E1381 6.3.1.4); CR and LF are fine.
    if (b === STX || b === ETX || b === EOT || b === ENQ || b === ACK || b === NAK || b === ETB) {
      return { ok: false, reason: 'control_character', size };
    }
  }
  return {
    ok: true,
    frame: {
      number: fn - 0x30,
      text: Buffer.from(bytes.subarray(2, end - 3)).toString('latin1'),
      final: terminator === ETX,
      size,
    },
  };
}

/** Builds one frame around `text` (at most MAX_FRAME_TEXT characters). */
export function buildFrame(number: number, text: string, final: boolean): Buffer {
  const body = Buffer.from(`${number % 8}${text}`, 'latin1');
  const withEnd = Buffer.concat([Buffer.from([STX]), body, Buffer.from([final ? ETX : ETB])]);
  const sum = checksum(withEnd, 1, withEnd.length - 1);
  return Buffer.concat([withEnd, Buffer.from(sum, 'latin1'), Buffer.from([CR, LF])]);
}

/**
 * The frames of a message: each record (ending in CR) becomes one or more frames of at most
 * MAX_FRAME_TEXT characters, ETB on all but the last; frame numbers run 1..7, 0, 1...
 */
export function frameMessage(records: string[]): Buffer[] {
  const frames: Buffer[] = [];
  let fn = 1;
  for (const record of records) {
    const text = record.endsWith('\r') ? record : `${record}\r`;
    for (let at = 0; at < text.length; at += MAX_FRAME_TEXT) {
      const part = text.slice(at, at + MAX_FRAME_TEXT);
      frames.push(buildFrame(fn, part, at + MAX_FRAME_TEXT >= text.length));
      fn = (fn + 1) % 8;
    }
  }
  return frames;
}

/**
 * Finds the end of the frame that starts at `start` (an STX) in `buf`: the index just past its last
 * byte, or -1 when more bytes are needed. A frame ends with ETX/ETB, two hex digits, and CR LF;
 * lenient mode also ends one at the checksum when the next byte is not CR (a machine without CR LF).
 */
export function frameEnd(buf: Uint8Array, start: number, opts: FrameOptions): number {
  const limit = opts.lenient ? LENIENT_MAX_FRAME_BYTES : MAX_FRAME_BYTES;
  for (let i = start + 1; i < buf.length; i++) {
    if (i - start >= limit) return i; // too long: cut here, the check refuses it
    const b = buf[i]!;
    if (b === STX) return i; // a new frame began: this one is broken
    if (b !== ETX && b !== ETB) continue;
    if (i + 2 >= buf.length) return -1;
    if (!isHex(buf[i + 1]) || !isHex(buf[i + 2])) return i + 1;
    const after = i + 3;
    if (after >= buf.length) return opts.lenient ? after : -1;
    if (buf[after] === CR) {
      // Lenient: a machine that ends its frame with CR alone (and waits for our ACK) is answered.
      if (after + 1 >= buf.length) return opts.lenient ? after + 1 : -1;
      return buf[after + 1] === LF ? after + 2 : after + 1;
    }
    return after;
  }
  return -1;
}
