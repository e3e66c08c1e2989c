/**
 * ASTM E1394 (CLSI LIS2-A2) record layer: H (header), P (patient), O (order), R (result),
 * C (comment), Q (request information), L (terminator), M and S (manufacturer, scientific: kept
 * as records, otherwise ignored).
 *
 * The header's second field names the delimiters: `H|\^&` is field `|`, repeat `\`, component `^`,
 * escape `&`. Escapes: &F& field, &S& component, &R& repeat, &E& escape.
 */

export interface Delimiters {
  field: string;
  repeat: string;
  component: string;
  escape: string;
}

export const DEFAULT_DELIMITERS: Delimiters = { field: '|', repeat: '\\', component: '^', escape: '&' };

export interface AstmRecord {
  type: string;
  /** fields[0] is the record type (field 1 as the standard counts); fields[n] is field n + 1 (O-3 is fields[2]). */
  fields: string[];
}

export interface AstmResult {
  /** R-3 universal test ID as sent (all components). */
  testId: string[];
  /** The machine's test code: the first non-empty component of R-3 after the three universal ones, else the first. */
  code: string;
  value: string;
  unit: string;
  referenceRange: string;
  flag: string;
  status: string;
  completedAt: string;
  comments: string[];
  /** The R record as sent, for an instrument profile's locations. */
  record: AstmRecord;
}

export interface AstmOrder {
  /** O-3 specimen ID, first component (trimmed). */
  specimenId: string;
  /** O-4 instrument specimen ID, its components trimmed. */
  instrumentSpecimenId: string[];
  testIds: string[];
  results: AstmResult[];
  /** The O record as sent. */
  record: AstmRecord;
}

export interface AstmQuery {
  /** Q-3 starting range ID: the specimen IDs the machine asks about. */
  specimenIds: string[];
  /** Q-3's components as sent (trimmed): echoed in the answer's O-4 (rack, position, attributes). */
  range: string[];
  testIds: string[];
}

export interface AstmMessage {
  delimiters: Delimiters;
  sender: string;
  version: string;
  patients: { id: string; orders: AstmOrder[]; record: AstmRecord | null }[];
  queries: AstmQuery[];
  /** The H record as sent. */
  header: AstmRecord;
  /** true when the message ended with an L record. */
  terminated: boolean;
}

export class AstmParseError extends Error {}

export function unescapeAstm(s: string, d: Delimiters): string {
  if (!s.includes(d.escape)) return s;
  const e = d.escape;
  return s
    .split(`${e}F${e}`)
    .join(d.field)
    .split(`${e}S${e}`)
    .join(d.component)
    .split(`${e}R${e}`)
    .join(d.repeat)
    .split(`${e}E${e}`)
    .join(e);
}

/** The records of a message's text: records end in CR (a LF after it, or alone, is accepted). */
export function splitRecords(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((r) => r.trimStart())
    .filter((r) => r.length > 0);
}

export function parseRecord(line: string, d: Delimiters): AstmRecord {
  const type = line.charAt(0).toUpperCase();
  if (type === 'H') {
    // H|\^&|...: the delimiter field is not split.
    const rest = line.slice(5).split(d.field);
    return { type, fields: ['H', line.slice(2, 5), ...rest.slice(1)] };
  }
  const fields = line.split(d.field);
  fields[0] = type;
  return { type, fields };
}

export function components(field: string | undefined, d: Delimiters): string[] {
  return (field ?? '').split(d.component).map((c) => unescapeAstm(c, d));
}

function repeats(field: string | undefined, d: Delimiters): string[] {
  return (field ?? '').split(d.repeat).filter((r) => r.length > 0);
}

/** The machine's test code from R-3 / O-5: `^^^685/` -> `685/`, `^^^^WBC^1` -> `WBC`. */
export function testCode(parts: string[]): string {
  const local = parts.slice(3).find((p) => p.trim() !== '');
  return (local ?? parts.find((p) => p.trim() !== '') ?? '').trim();
}

/**
 * The specimen ID in a Q record's starting range, whose layout differs by maker:
 * - Sysmex: `rack^position^sample number^B` (the attribute B, M or A last): the component before it;
 * - LIS2-A2: `patient ID^specimen ID^...`: the second component;
 * - Roche cobas: `^^barcode^sequence^rack^position^^S1^SC`: the third, when the first two are empty;
 * - else the first. `ALL` (every specimen) is not a specimen ID.
 */
export function querySpecimenId(range: string[]): string {
  const parts = range.map((c) => c.trim());
  const last = parts.reduce((at, c, i) => (c ? i : at), -1);
  const usable = (c: string | undefined) => (c && c.toUpperCase() !== 'ALL' ? c : '');
  if (last >= 1 && /^[ABM]$/i.test(parts[last]!)) return usable(parts[last - 1]);
  return usable(parts[1]) || (!parts[0] ? usable(parts[2]) : '') || usable(parts[0]);
}

/** Delimiters from an H record (`H|\^&`), else the defaults. */
export function delimitersOf(header: string): Delimiters {
  if (header.length >= 5 && header.charAt(0).toUpperCase() === 'H') {
    const [field, repeat, component, escape] = [header[1]!, header[2]!, header[3]!, header[4]!];
    if (new Set([field, repeat, component, escape]).size === 4) return { field, repeat, component, escape };
  }
  return DEFAULT_DELIMITERS;
}

/**
 * Parses one message's records (H first). Throws AstmParseError on a message that does not start
 * with H. Records it does not know are skipped; a result before any order is refused.
 */
export function parseAstmMessage(records: string[]): AstmMessage {
  const first = records[0];
  if (!first || first.charAt(0).toUpperCase() !== 'H')
    throw new AstmParseError('The message does not start with an H record');
  const d = delimitersOf(first);
  const header = parseRecord(first, d);
  const msg: AstmMessage = {
    delimiters: d,
    sender: components(header.fields[4], d)
      .map((c) => c.trim())
      .filter(Boolean)
      .join(' '),
    version: (header.fields[12] ?? '').trim(),
    header,
    patients: [],
    queries: [],
    terminated: false,
  };
  let patient: AstmMessage['patients'][number] | null = null;
  let order: AstmOrder | null = null;
  let result: AstmResult | null = null;
  for (const line of records.slice(1)) {
    const r = parseRecord(line, d);
    switch (r.type) {
      case 'P':
        // P-3 practice, P-4 laboratory, P-5 third patient ID: the first one sent.
        patient = {
          id: [2, 3, 4].map((i) => components(r.fields[i], d)[0]?.trim() ?? '').find((x) => x !== '') ?? '',
          orders: [],
          record: r,
        };
        msg.patients.push(patient);
        order = null;
        result = null;
        break;
      case 'O': {
        if (!patient) {
          patient = { id: '', orders: [], record: null };
          msg.patients.push(patient);
        }
        order = {
          specimenId: components(r.fields[2], d)[0]?.trim() ?? '',
          instrumentSpecimenId: components(r.fields[3], d).map((c) => c.trim()),
          testIds: repeats(r.fields[4], d).map((t) => testCode(components(t, d))),
          results: [],
          record: r,
        };
        patient.orders.push(order);
        result = null;
        break;
      }
      case 'R': {
        if (!order) throw new AstmParseError('A result record came before any order record');
        const testId = components(r.fields[2], d);
        result = {
          testId,
          code: testCode(testId),
          value: components(r.fields[3], d)[0]!.trim(),
          unit: unescapeAstm(r.fields[4] ?? '', d).trim(),
          referenceRange: unescapeAstm(r.fields[5] ?? '', d).trim(),
          flag: unescapeAstm(r.fields[6] ?? '', d).trim(),
          status: (r.fields[8] ?? '').trim(),
          completedAt: (r.fields[12] ?? '').trim(),
          comments: [],
          record: r,
        };
        order.results.push(result);
        break;
      }
      case 'C': {
        const text = components(r.fields[3], d)
          .map((c) => c.trim())
          .filter(Boolean)
          .join(' ');
        if (result && text) result.comments.push(text);
        break;
      }
      case 'Q': {
        const range = components(r.fields[2], d).map((c) => c.trim());
        const id = querySpecimenId(range);
        msg.queries.push({
          specimenIds: id ? [id] : [],
          range,
          testIds: repeats(r.fields[4], d).map((t) => testCode(components(t, d))),
        });
        break;
      }
      case 'L':
        msg.terminated = true;
        return msg;
      default:
        break;
    }
  }
  return msg;
}

/**
 * The messages in a stream of records: each runs from an H record to its L record. Records before
 * the first H are dropped; a message without its L (the line dropped) is returned as incomplete,
 * never as results.
 */
export function splitMessages(records: string[]): { complete: string[][]; incomplete: string[][] } {
  const complete: string[][] = [];
  const incomplete: string[][] = [];
  let current: string[] | null = null;
  for (const r of records) {
    const t = r.charAt(0).toUpperCase();
    if (t === 'H') {
      if (current) incomplete.push(current);
      current = [r];
    } else if (current) {
      current.push(r);
      if (t === 'L') {
        complete.push(current);
        current = null;
      }
    }
  }
  if (current) incomplete.push(current);
  return { complete, incomplete };
}

export interface OrderAnswer {
  /** The specimen ID as the machine asked for it. */
  specimenId: string;
  /** Q-3's components as the machine sent them, echoed in O-4. */
  range: string[];
  /** The patient's code in lims ('' when the sample is not known). */
  patientId: string;
  /** The machine's codes of the tests to run ([]: no orders for this specimen). */
  testCodes: string[];
  /** The sample, when lims knows it (HL7 answers carry these; ASTM answers do not). */
  sample?: {
    sampleCode: string;
    sampleType: string;
    stat: boolean;
    collectedAt: string | null;
    patientName: string;
    dateOfBirth: string | null;
    gender: string | null;
  };
}

/**
 * The records of a query answer (LIS2-A2 host query): H, then per specimen asked about P and O
 * with the machine's codes of the tests to run (O-5, repeated `^^^code`), O-4 the query's range
 * echoed, O-12 action code N, O-26 report type Q (a response to a query). A specimen with nothing
 * to run gets O-26 Y (no order on record) and no tests; when no specimen has anything, L-3 is I
 * (no information available from the last query), else N.
 *
 * An order download (`kind: 'download'`, lims sending without being asked) has O-26 O (an order),
 * O-6 S for a STAT sample else R, and O-4 empty.
 */
export function buildOrderRecords(
  answers: OrderAnswer[],
  d: Delimiters = DEFAULT_DELIMITERS,
  now = new Date(),
  kind: 'query' | 'download' = 'query',
): string[] {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const esc = (s: string) =>
    s
      .split(d.escape)
      .join(`${d.escape}E${d.escape}`)
      .split(d.field)
      .join(`${d.escape}F${d.escape}`)
      .split(d.component)
      .join(`${d.escape}S${d.escape}`)
      .split(d.repeat)
      .join(`${d.escape}R${d.escape}`);
  const f = d.field;
  const fields = (values: Record<number, string>, count: number) =>
    Array.from({ length: count }, (_, i) => values[i + 1] ?? '').join(f);
  const out = [
    `H${f}${d.repeat}${d.component}${d.escape}${f}${f}${f}lims${f}${f}${f}${f}${f}${f}${f}P${f}1${f}${stamp}`,
  ];
  answers.forEach((a, i) => {
    out.push(fields({ 1: 'P', 2: String(i + 1), 3: esc(a.patientId) }, 3));
    const tests = a.testCodes.map((c) => `${d.component}${d.component}${d.component}${esc(c)}`).join(d.repeat);
    out.push(
      fields(
        {
          1: 'O',
          2: '1',
          3: esc(a.specimenId),
          4: a.range.map(esc).join(d.component),
          5: tests,
          6: kind === 'download' && a.sample?.stat ? 'S' : 'R',
          12: 'N',
          26: kind === 'download' ? 'O' : a.testCodes.length ? 'Q' : 'Y',
        },
        26,
      ),
    );
  });
  out.push(`L${f}1${f}${answers.some((a) => a.testCodes.length) ? 'N' : 'I'}`);
  return out;
}
