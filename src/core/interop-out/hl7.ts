import type { OutLine, OutReport } from './report.js';
import { ucumOf } from './ucum.js';

/**
 * HL7 v2.5.1 ORU^R01 of a verified report: MSH, PID, ORC, OBR, and an OBX per result
 * (NTE under it for a note). Segments end in CR; text is escaped (| ^ ~ \ & as \F\ \S\ \R\ \E\ \T\,
 * a line break as \.br\), so a value or name that contains a delimiter cannot shift the fields.
 * parseHl7 reads such a message back (the ACK of a receiver, and the tests).
 */

export const SEGMENT_END = '\r';

/** Escapes text for a field or component (HL7 v2 2.7 escape sequences). */
export function hl7Escape(text: string): string {
  return text
    .replace(/\\/g, '\\E\\')
    .replace(/\|/g, '\\F\\')
    .replace(/\^/g, '\\S\\')
    .replace(/~/g, '\\R\\')
    .replace(/&/g, '\\T\\')
    .replace(/\r\n|\r|\n/g, '\\.br\\');
}

export function hl7Unescape(text: string): string {
  return text.replace(/\\(F|S|R|T|E|\.br)\\/g, (_, c: string) =>
    c === 'F' ? '|' : c === 'S' ? '^' : c === 'R' ? '~' : c === 'T' ? '&' : c === 'E' ? '\\' : '\n',
  );
}

/** An HL7 DTM in UTC: 20261126143005+0000. */
export function hl7Time(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}+0000`;
}

const hl7Date = (ymd: string | null) => (ymd ? ymd.slice(0, 10).replace(/-/g, '') : '');

/** HL7 table 0001. */
const sexOf = (g: string | null) => (g === 'Male' ? 'M' : g === 'Female' ? 'F' : g ? 'O' : 'U');

/** HL7 table 0078: L, H, A, N; LL, HH, AA beyond the critical limits. */
export function abnormalFlag(line: Pick<OutLine, 'flag' | 'critical'>): string {
  const base = line.flag === 'low' ? 'L' : line.flag === 'high' ? 'H' : line.flag === 'abnormal' ? 'A' : 'N';
  return line.critical && base !== 'N' ? base + base : base;
}

/** Fields joined by |, each component list joined by ^, every part escaped. */
const seg = (name: string, fields: (string | string[])[]) =>
  [name, ...fields.map((f) => (Array.isArray(f) ? f.map(hl7Escape).join('^') : hl7Escape(f)))]
    .join('|')
    .replace(/\^+(?=\||$)/g, '');

export interface Hl7Options {
  messageId: string;
  /** When the message is made (MSH-7). */
  now?: Date;
  receivingApplication?: string;
  receivingFacility?: string;
}

function obx(line: OutLine, setId: number, observedAt: string | null): string {
  const numeric = line.numeric !== null;
  const ucum = ucumOf(line.unit);
  // CWE: LOINC first (the code hospitals file by), the lab's own code as the alternate.
  const id = line.loinc ? [line.loinc, line.name, 'LN', line.code, line.name, 'L'] : [line.code, line.name, 'L'];
  const unit = line.unit ? (ucum ? [ucum, line.unit, 'UCUM'] : ['', line.unit]) : '';
  return seg('OBX', [
    String(setId),
    numeric ? 'NM' : line.value.includes('\n') ? 'FT' : 'ST',
    id,
    '',
    // The value as the lab wrote it (5.0 stays 5.0: its decimals are its precision), without thousands commas.
    numeric ? line.value.trim().replace(/,/g, '') : line.value,
    unit,
    line.range_text ?? '',
    abnormalFlag(line),
    '',
    '',
    line.amended ? 'C' : 'F',
    '',
    '',
    hl7Time(observedAt),
    '',
    line.verified_by ? ['', line.verified_by] : '',
  ]);
}

/** The ORU^R01 message of a verified report; segments end in CR. */
export function buildOru(report: OutReport, opts: Hl7Options): string {
  const { lab, patient, sample } = report;
  const segments = [
    // MSH-2 is the encoding characters themselves, never escaped.
    `MSH|^~\\&|${seg('', [['LIMS'], [lab.name], [opts.receivingApplication ?? ''], [opts.receivingFacility ?? '']]).slice(1)}|${hl7Time((opts.now ?? new Date()).toISOString())}||ORU^R01^ORU_R01|${hl7Escape(opts.messageId)}|P|2.5.1|||AL|NE||UNICODE UTF-8`,
    seg('PID', [
      '1',
      '',
      [patient.code, '', '', lab.name, 'MR'],
      '',
      [patient.last_name, patient.first_name],
      '',
      hl7Date(patient.date_of_birth),
      sexOf(patient.gender),
      '',
      '',
      '',
      '',
      patient.phone ?? '',
    ]),
    seg('ORC', ['RE', sample.bill_number ?? sample.code, [sample.code, lab.name], '', 'CM']),
    seg('OBR', [
      '1',
      sample.bill_number ?? sample.code,
      [sample.code, lab.name],
      ['LABREPORT', 'Laboratory report', 'L'],
      '',
      '',
      hl7Time(sample.collected_at),
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      '',
      report.doctor ? ['', report.doctor] : '',
      '',
      '',
      '',
      '',
      '',
      hl7Time(sample.reported_at),
      '',
      '',
      'F',
    ]),
  ];
  report.lines.forEach((line, i) => {
    segments.push(obx(line, i + 1, sample.collected_at));
    if (line.notes) segments.push(seg('NTE', ['1', 'L', line.notes]));
  });
  return segments.join(SEGMENT_END) + SEGMENT_END;
}

export interface Hl7Segment {
  name: string;
  /** fields[1] is the first field after the name (MSH: fields[1] is MSH-2, the encoding characters). */
  fields: string[];
}

/** Reads a message back: segments (CR or LF ends), fields; field() unescapes a field's component. */
export function parseHl7(message: string): Hl7Segment[] {
  return message
    .split(/\r\n|\r|\n/)
    .filter((s) => s.length > 0)
    .map((s) => {
      const parts = s.split('|');
      const name = parts[0] ?? '';
      // MSH-1 is the field separator itself: MSH-n is parts[n-1]; shift so fields[n] is MSH-n.
      return { name, fields: name === 'MSH' ? ['', '|', ...parts.slice(1)] : parts };
    });
}

/** The unescaped text of field n, component c (1-based), of a parsed segment. */
export function field(s: Hl7Segment | undefined, n: number, c = 1): string {
  const raw = s?.fields[n] ?? '';
  if (s?.name === 'MSH' && n <= 2) return raw;
  return hl7Unescape(raw.split('^')[c - 1] ?? '');
}
