/**
 * HL7 v2 messages (ER7 text): segments end in CR (LF and CR LF are accepted too, as real senders
 * use them); MSH-1 is the field separator and MSH-2 the encoding characters (component, repeat,
 * escape, subcomponent: `^~\&`). Escapes: \F\ \S\ \T\ \R\ \E\ and \Xhh..\ (hex bytes); \H\ \N\
 * (highlighting) are dropped. See docs/decisions.md for why this is ours and not a package.
 */

export interface Hl7Encoding {
  field: string;
  component: string;
  repeat: string;
  escape: string;
  subcomponent: string;
}

export interface Hl7Segment {
  name: string;
  /** fields[n] is field n as HL7 counts (fields[0] the name; for MSH, fields[1] the separator). Raw text. */
  fields: string[];
}

export class Hl7Message {
  constructor(
    readonly encoding: Hl7Encoding,
    readonly segments: Hl7Segment[],
  ) {}

  segment(name: string): Hl7Segment | undefined {
    return this.segments.find((s) => s.name === name);
  }

  all(name: string): Hl7Segment[] {
    return this.segments.filter((s) => s.name === name);
  }

  /** Field `n`, repetition `rep` (0-based), component and subcomponent (1-based), unescaped. */
  get(seg: Hl7Segment | undefined, n: number, component = 1, sub = 1, rep = 0): string {
    const raw = seg?.fields[n];
    if (raw === undefined) return '';
    if (seg!.name === 'MSH' && n <= 2) return raw;
    const e = this.encoding;
    const r = raw.split(e.repeat)[rep] ?? '';
    const c = r.split(e.component)[component - 1] ?? '';
    const s = c.split(e.subcomponent)[sub - 1] ?? '';
    return unescapeHl7(s, e);
  }

  /** The repetitions of field `n` (raw). */
  repeats(seg: Hl7Segment | undefined, n: number): string[] {
    const raw = seg?.fields[n];
    return raw ? raw.split(this.encoding.repeat) : [];
  }

  get type(): string {
    const msh = this.segment('MSH');
    return `${this.get(msh, 9, 1)}^${this.get(msh, 9, 2)}`;
  }

  get controlId(): string {
    return this.get(this.segment('MSH'), 10);
  }

  get version(): string {
    return this.get(this.segment('MSH'), 12);
  }
}

export class Hl7ParseError extends Error {}

export function unescapeHl7(s: string, e: Hl7Encoding): string {
  if (!s.includes(e.escape)) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch !== e.escape) {
      out += ch;
      continue;
    }
    const end = s.indexOf(e.escape, i + 1);
    if (end === -1) {
      out += s.slice(i);
      break;
    }
    const code = s.slice(i + 1, end);
    if (code === 'F') out += e.field;
    else if (code === 'S') out += e.component;
    else if (code === 'T') out += e.subcomponent;
    else if (code === 'R') out += e.repeat;
    else if (code === 'E') out += e.escape;
    else if (code === '.br') out += '\n';
    else if (/^X([0-9A-Fa-f]{2})+$/.test(code)) out += Buffer.from(code.slice(1), 'hex').toString('latin1');
    else if (code === 'H' || code === 'N') out += '';
    else out += s.slice(i, end + 1);
    i = end;
  }
  return out;
}

export function escapeHl7(s: string, e: Hl7Encoding): string {
  let out = '';
  for (const ch of s) {
    if (ch === e.escape) out += `${e.escape}E${e.escape}`;
    else if (ch === e.field) out += `${e.escape}F${e.escape}`;
    else if (ch === e.component) out += `${e.escape}S${e.escape}`;
    else if (ch === e.subcomponent) out += `${e.escape}T${e.escape}`;
    else if (ch === e.repeat) out += `${e.escape}R${e.escape}`;
    else if (ch === '\r' || ch === '\n') out += `${e.escape}.br${e.escape}`;
    else out += ch;
  }
  return out;
}

/**
 * Parses one message. Segment ends: CR, LF or CR LF; empty lines (a trailing separator) are
 * dropped. Throws Hl7ParseError when the text does not start with MSH or its encoding characters
 * are not four distinct characters (`MSH|^~&|`, missing the escape, is read leniently with `\`).
 */
export function parseHl7(text: string): Hl7Message {
  const t = text.replace(String.fromCharCode(0x0b), '').trimStart();
  if (!t.startsWith('MSH') || t.length < 8) throw new Hl7ParseError('The message does not start with an MSH segment');
  const field = t[3]!;
  const encEnd = t.indexOf(field, 4);
  const enc = encEnd === -1 ? '' : t.slice(4, encEnd);
  const [component = '^', repeat = '~', escape = '\\', subcomponent = '&'] =
    enc.length === 3 ? [enc[0], enc[1], '\\', enc[2]] : [...enc];
  const encoding: Hl7Encoding = { field, component, repeat, escape, subcomponent };
  if (new Set([field, component, repeat, escape, subcomponent]).size !== 5 || /[\r\n\sA-Za-z0-9]/.test(field + enc)) {
    throw new Hl7ParseError('MSH-2 does not hold four distinct encoding characters');
  }
  const segments: Hl7Segment[] = [];
  for (const line of t.split(/\r\n|\r|\n/)) {
    if (!line.trim()) continue;
    const name = line.slice(0, 3);
    if (!/^[A-Z][A-Z0-9]{2}$/.test(name)) throw new Hl7ParseError(`A segment name is not valid: "${name.slice(0, 3)}"`);
    if (name === 'MSH') {
      const rest = line.slice(encEnd + 1).split(field);
      segments.push({ name, fields: ['MSH', field, enc, ...rest] });
    } else {
      segments.push({ name, fields: line.split(field) });
    }
  }
  return new Hl7Message(encoding, segments);
}

/** HL7 timestamp (YYYYMMDD[HHMM[SS[.S]]][+/-ZZZZ]) to ISO, or null. */
export function hl7Time(ts: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(?:(\d{2}))?)?(?:\.\d+)?([+-]\d{4})?$/.exec(ts.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', z] = m;
  const zone = z ? `${z.slice(0, 3)}:${z.slice(3)}` : 'Z';
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** An HL7 timestamp of `date` in UTC (YYYYMMDDHHMMSS+0000). */
export function hl7Now(date = new Date()): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}+0000`;
}

export type AckCode = 'AA' | 'AE' | 'AR';

/**
 * The acknowledgement of `msg`: MSH (sender and receiver swapped, ACK^<trigger>^ACK, same version
 * and processing ID), MSA (code, the message's control ID, text), and ERR on AE/AR.
 */
export function buildAck(msg: Hl7Message | null, code: AckCode, text: string, controlId: string): string {
  const e = msg?.encoding ?? DEFAULT_ENCODING;
  const trigger = msg ? msg.get(msg.segment('MSH'), 9, 2) : '';
  const segs = [
    replyHeader(msg, `ACK${e.component}${trigger}${e.component}ACK`, controlId),
    ['MSA', code, msg?.controlId ?? '', escapeHl7(text, e)].join(e.field),
  ];
  if (code !== 'AA') {
    segs.push(['ERR', '', '', '', 'E', '', '', '', escapeHl7(text, e)].join(e.field));
  }
  return `${segs.join('\r')}\r`;
}

export const DEFAULT_ENCODING: Hl7Encoding = {
  field: '|',
  component: '^',
  repeat: '~',
  escape: '\\',
  subcomponent: '&',
};

/**
 * The MSH of a message lims sends in reply to `msg`: sender and receiver swapped, the message type
 * given (raw, with its component separators), the same processing ID and version.
 */
export function replyHeader(msg: Hl7Message | null, type: string, controlId: string): string {
  const e = msg?.encoding ?? DEFAULT_ENCODING;
  const msh = msg?.segment('MSH');
  const raw = (n: number) => msh?.fields[n] ?? '';
  return [
    'MSH',
    `${e.component}${e.repeat}${e.escape}${e.subcomponent}`,
    raw(5) || 'lims',
    raw(6),
    raw(3),
    raw(4),
    hl7Now(),
    '',
    type,
    controlId,
    raw(11) || 'P',
    raw(12) || '2.5.1',
  ].join(e.field);
}
