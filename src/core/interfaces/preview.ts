import type { Db } from '../db/connection.js';
import { DomainError, NotFoundError, ValidationError } from '../errors.js';
import { OPEN_FOR_ENTRY } from '../results/repository.js';
import { orderedTests, resultOf } from '../results/entry-repository.js';
import { checkedValue } from '../results/service.js';
import type { CaptureReplay, ReplayRow } from '../../shared/schemas/capture-replay.js';
import { checkFrame, frameEnd, STX } from './astm/frames.js';
import { splitMessages, splitRecords, parseAstmMessage } from './astm/records.js';
import { parseHl7 } from './hl7/message.js';
import { inboundFromAstm, inboundFromHl7, type Inbound } from './inbound.js';
import { profileOf } from './profile.js';
import { convertValue, mapEntryOf, sampleOfSpecimen, unknownSampleDetail } from './apply-inbound.js';
import { codeMapOf } from './service.js';
import { findConnectionRow, testNames, type ConnectionRow } from './repository.js';

const VT = '\x0b';
const FS = '\x1c';

/**
 * The record text of an ASTM capture: frames (STX n text ETX|ETB checksum) joined, or bare records
 * when it holds no STX. A frame whose checksum does not hold is read all the same and said so: a
 * capture pasted into a text box has its CRs turned into LFs, which changes every checksum.
 */
function astmText(capture: string, notes: string[]): string {
  if (!capture.includes('\x02')) return capture;
  const bytes = Buffer.from(capture, 'latin1');
  let text = '';
  let bad = 0;
  let frames = 0;
  for (let at = bytes.indexOf(STX); at !== -1 && at < bytes.length;) {
    const end = frameEnd(bytes, at, { lenient: true });
    const stop = end === -1 ? bytes.length : end;
    const piece = bytes.subarray(at, stop);
    frames += 1;
    const r = checkFrame(piece, { lenient: true });
    if (r.ok) text += r.frame.text;
    else {
      bad += 1;
      // The text between the frame number and the ETX/ETB, as sent.
      const raw = piece.toString('latin1');
      const end = Math.max(raw.lastIndexOf('\x03'), raw.lastIndexOf('\x17'));
      text += end > 2 ? raw.slice(2, end) : '';
    }
    const next = bytes.indexOf(STX, stop);
    at = next;
  }
  if (bad) notes.push(`${bad} of ${frames} frames failed their check (read anyway: a pasted capture loses its CRs)`);
  return text;
}

/** The HL7 messages of a capture: MLLP blocks, else messages that each begin with an MSH line. */
function hl7Messages(capture: string): string[] {
  if (capture.includes(VT)) {
    return capture
      .split(VT)
      .slice(1)
      .map((b) => b.split(FS)[0]!)
      .filter((b) => b.trim());
  }
  return capture
    .replace(/\r\n|\n/g, '\r')
    .split(/\r(?=MSH)/)
    .filter((m) => m.trim().startsWith('MSH'));
}

export function captureProtocol(capture: string): 'astm' | 'hl7' {
  // Past leading white space and control bytes (VT of an MLLP block, ENQ of a transcript).
  let i = 0;
  while (i < capture.length && capture.charCodeAt(i) <= 0x20) i += 1;
  return capture.startsWith('MSH', i) ? 'hl7' : 'astm';
}

/**
 * What each record of a capture would become on this connection, with nothing stored: the profile
 * reads it, the code map names the test, the sample is looked up by barcode or code, and the checks
 * a result is entered with (ordered, sample open, not yet entered, a value the test takes) are run
 * read-only. The reagent stock a result consumes is checked only when it is stored.
 */
export async function previewCapture(
  db: Db,
  organizationId: number,
  connectionId: number,
  capture: string,
): Promise<CaptureReplay> {
  const conn = await findConnectionRow(db, organizationId, connectionId);
  if (!conn) throw new NotFoundError('Connection', connectionId);
  const protocol = captureProtocol(capture);
  if (conn.protocol !== 'folder' && conn.protocol !== protocol)
    throw ValidationError.field(
      'capture',
      `This is an ${protocol.toUpperCase()} capture; ${conn.name} speaks ${conn.protocol.toUpperCase()}`,
    );
  const notes: string[] = [];
  const inbounds: Inbound[] = [];
  const profile = profileOf(conn, protocol);
  if (protocol === 'hl7') {
    for (const text of hl7Messages(capture)) {
      try {
        inbounds.push(inboundFromHl7(parseHl7(text), profile));
      } catch (err) {
        notes.push(
          `Message ${inbounds.length + 1} cannot be read: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  } else {
    const { complete, incomplete } = splitMessages(splitRecords(astmText(capture, notes)));
    for (const records of complete) {
      try {
        inbounds.push(inboundFromAstm(parseAstmMessage(records), profile));
      } catch (err) {
        notes.push(
          `Message ${inbounds.length + 1} cannot be read: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    if (incomplete.length)
      notes.push(`${incomplete.length} message(s) have no L record: nothing of them would be stored`);
  }
  if (!inbounds.length && !notes.length)
    throw ValidationError.field('capture', `No ${protocol.toUpperCase()} message was found in the capture`);
  const rows = await judgeRows(db, conn, inbounds, profile.specimen);
  return { protocol, profile: conn.profile as CaptureReplay['profile'], messages: inbounds.length, rows, notes };
}

async function judgeRows(db: Db, conn: ConnectionRow, inbounds: Inbound[], tried: string[]): Promise<ReplayRow[]> {
  const map = codeMapOf(conn);
  const names = new Map(
    (await testNames(db, conn.organization_id, [...new Set(map.flatMap((e) => (e.test_id ? [e.test_id] : [])))])).map(
      (t) => [t.id, t.name],
    ),
  );
  // Two values for one sample and test in the same capture: the second would be refused.
  const taken = new Set<string>();
  const rows: ReplayRow[] = [];
  for (const [i, inbound] of inbounds.entries()) {
    for (const r of inbound.results) {
      const row: ReplayRow = {
        message: i + 1,
        specimen_id: r.specimenId,
        code: r.code,
        value: r.value,
        unit: r.unit,
        flag: r.flag,
        outcome: 'unmatched',
        reason: null,
        detail: '',
        sample_code: null,
        test_name: null,
      };
      rows.push(row);
      const queue = (reason: ReplayRow['reason'], detail: string) => Object.assign(row, { reason, detail });
      const entry = mapEntryOf(map, r.code);
      if (!entry) {
        queue('unmapped_code', `The code ${r.code || '(none sent)'} is not in the code map of ${conn.name}`);
        continue;
      }
      if (entry.ignore || !entry.test_id) {
        Object.assign(row, { outcome: 'ignored', detail: `The code map ignores ${r.code}` });
        continue;
      }
      row.test_name = names.get(entry.test_id) ?? null;
      if (entry.unit && r.unit && entry.unit.trim().toLowerCase() !== r.unit.trim().toLowerCase()) {
        queue('unit_mismatch', `Sent in ${r.unit}; the code map expects ${entry.unit}`);
        continue;
      }
      const sample = await sampleOfSpecimen(db, conn.organization_id, r.specimenId);
      if (!sample) {
        queue('unknown_sample', unknownSampleDetail(r, tried));
        continue;
      }
      row.sample_code = sample.sample_code;
      const refusal = await refusalOf(db, sample, entry.test_id, convertValue(r.value, entry.factor), taken);
      if (refusal) queue('refused', refusal);
      else Object.assign(row, { outcome: 'entered', detail: `Entered on ${sample.sample_code} as ${row.test_name}` });
    }
    // What is not a result comes after the results of its message: the results are what the lab checks.
    for (const s of inbound.skipped)
      rows.push({
        message: i + 1,
        specimen_id: s.specimenId,
        code: s.code,
        value: s.value,
        unit: '',
        flag: '',
        outcome: s.kind === 'ignored' ? 'ignored' : 'skipped',
        reason: null,
        detail: s.detail,
        sample_code: null,
        test_name: null,
      });
  }
  return rows;
}

/** What enterResult would refuse, asked without writing; null when it would enter the value. */
async function refusalOf(
  db: Db,
  sample: NonNullable<Awaited<ReturnType<typeof sampleOfSpecimen>>>,
  testId: number,
  value: string,
  taken: Set<string>,
): Promise<string | null> {
  const test = (await orderedTests(db, sample.id)).find((t) => t.id === testId);
  if (!test) return `The test was not ordered on sample ${sample.sample_code}`;
  if (!(OPEN_FOR_ENTRY as readonly string[]).includes(sample.status))
    return `Sample ${sample.sample_code} is ${sample.status}; results cannot be entered for it`;
  const key = `${sample.id}:${testId}`;
  if (taken.has(key) || (await resultOf(db, sample.id, testId)))
    return `A result for ${test.name} on sample ${sample.sample_code} is already entered`;
  try {
    checkedValue(test, value);
  } catch (err) {
    if (err instanceof DomainError) return firstMessage(err);
    throw err;
  }
  taken.add(key);
  return null;
}

function firstMessage(err: DomainError): string {
  return err instanceof ValidationError && err.details?.length
    ? err.details.map((d) => d.message).join('; ')
    : err.message;
}
