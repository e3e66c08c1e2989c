import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { DomainError, ValidationError } from '../errors.js';
import { withSavepoint } from '../db/savepoint.js';
import { labIsOpen, LabClosedError } from '../tenants/open-labs.js';
import { enterResult } from '../results/entry.js';
import { orderedTests } from '../results/entry-repository.js';
import { findSampleRow, type SampleRow } from '../samples/repository.js';
import { numericValue } from '../../shared/flags.js';
import type { CodeMapEntry, UnmatchedReason } from '../../shared/schemas/connections.js';
import { splitMessages, splitRecords, type OrderAnswer } from './astm/records.js';
import { OPEN_FOR_ENTRY } from '../results/repository.js';
import {
  astmMessages,
  inboundFromAstm,
  inboundFromHl7,
  type Inbound,
  type InboundQuery,
  type InboundResult,
} from './inbound.js';
import { buildAck, parseHl7, type AckCode, type Hl7Message } from './hl7/message.js';
import { buildQueryReplies } from './hl7/query.js';
import { codeMapOf } from './service.js';
import { profileOf } from './profile.js';
import {
  insertMessageRow,
  insertUnmatchedRow,
  touchConnection,
  updateMessageRow,
  type ConnectionRow,
} from './repository.js';

/** The machine as an actor: its connection's service account, in the connection's lab. */
export function machineActor(conn: Pick<ConnectionRow, 'organization_id' | 'service_user_id' | 'name'>): Actor {
  return {
    userId: conn.service_user_id,
    email: null,
    role: 'lab_technician',
    organizationId: conn.organization_id,
    userAgent: `interface: ${conn.name}`,
  };
}

/** A specimen ID is a sample's barcode, else its sample code. */
export async function sampleOfSpecimen(
  db: Db,
  organizationId: number,
  specimenId: string,
): Promise<SampleRow | undefined> {
  if (!specimenId) return undefined;
  return (
    (await findSampleRow(db, organizationId, { barcode: specimenId })) ??
    (await findSampleRow(db, organizationId, { code: specimenId }))
  );
}

export function mapEntryOf(map: CodeMapEntry[], code: string): CodeMapEntry | undefined {
  const key = code.trim().toUpperCase();
  return map.find((e) => e.code.trim().toUpperCase() === key);
}

/** The machine's value in the test's unit: times the factor when the code map gives one. */
export function convertValue(value: string, factor: number | null | undefined): string {
  if (!factor || factor === 1) return value;
  const n = numericValue(value);
  if (n === null) return value;
  const prefix = /^[<>]=?/.exec(value.trim())?.[0] ?? '';
  return `${prefix}${Number((n * factor).toPrecision(6))}`;
}

interface Outcome {
  entered: number;
  unmatched: number;
  /** Values of codes the code map ignores: kept in the raw message only. */
  ignored: number;
}

/**
 * One result: matched to a sample (barcode or code), a mapped test, the unit the map expects, and
 * entered through enterResult (the same path as a typed result) inside a savepoint; anything that
 * does not match or is refused goes to the Unmatched queue with the reason. Never both.
 */
async function applyResult(
  trx: Db,
  conn: ConnectionRow,
  map: CodeMapEntry[],
  messageId: number,
  r: InboundResult,
  tried: string[],
): Promise<'entered' | 'unmatched' | 'ignored'> {
  const queue = async (reason: UnmatchedReason, detail: string) => {
    await insertUnmatchedRow(trx, {
      organization_id: conn.organization_id,
      connection_id: conn.id,
      message_id: messageId,
      specimen_id: r.specimenId.slice(0, 100),
      code: r.code.slice(0, 100),
      value: r.value.slice(0, 500),
      unit: r.unit ? r.unit.slice(0, 50) : null,
      flag: r.flag ? r.flag.slice(0, 20) : null,
      reason,
      detail: detail.slice(0, 500),
      status: 'open',
      result_id: null,
      discard_reason: null,
      resolved_by: null,
      resolved_at: null,
      created_at: nowIso(),
    });
    return 'unmatched' as const;
  };
  const entry = mapEntryOf(map, r.code);
  if (!entry) return queue('unmapped_code', `The code ${r.code} is not in the code map of ${conn.name}`);
  if (entry.ignore || !entry.test_id) return 'ignored';
  const testId = entry.test_id;
  if (entry.unit && r.unit && entry.unit.trim().toLowerCase() !== r.unit.trim().toLowerCase()) {
    return queue('unit_mismatch', `Sent in ${r.unit}; the code map expects ${entry.unit}`);
  }
  const sample = await sampleOfSpecimen(trx, conn.organization_id, r.specimenId);
  if (!sample) return queue('unknown_sample', unknownSampleDetail(r, tried));
  try {
    await withSavepoint(trx, () =>
      enterResult(trx, machineActor(conn), {
        sample_id: sample.id,
        test_id: testId,
        result_value: convertValue(r.value, entry.factor),
        unit: entry.factor ? undefined : r.unit || undefined,
        notes: r.comments.length ? r.comments.join('; ').slice(0, 1000) : undefined,
        equipment_id: conn.equipment_id ?? undefined,
      }),
    );
    return 'entered';
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const detail =
      err instanceof ValidationError && err.details?.length
        ? err.details.map((d) => d.message).join('; ')
        : err.message;
    return queue('refused', detail);
  }
}

/**
 * Why a result found no sample, naming what the machine sent and where: the technician looks for
 * the tube by that ID. With no ID at all, the locations the profile read.
 */
export function unknownSampleDetail(r: Pick<InboundResult, 'specimenId' | 'specimenFrom'>, tried: string[]): string {
  return r.specimenId
    ? `No sample has the barcode or code ${r.specimenId} (sent in ${r.specimenFrom})`
    : `The machine sent no specimen ID (read from ${tried.join(', ')})`;
}

export interface Received {
  messageId: number;
  status: string;
  ack: AckCode | 'ACK';
  /** The HL7 acknowledgement to send back (HL7 only; none for an ACK). */
  ackText?: string;
  /** HL7 messages to send after the acknowledgement (a query's DSR^Q03). */
  replies: string[];
  /** Query answers: the specimens asked about, with the machine codes of the tests to run on them. */
  answers: OrderAnswer[];
  entered: number;
  unmatched: number;
  ignored: number;
}

async function applyInbound(
  trx: Db,
  conn: ConnectionRow,
  protocol: 'astm' | 'hl7',
  messageId: number,
  inbound: Inbound,
): Promise<Outcome> {
  const map = codeMapOf(conn);
  const tried = profileOf(conn, protocol).specimen;
  const o: Outcome = { entered: 0, unmatched: 0, ignored: inbound.skipped.filter((x) => x.kind === 'ignored').length };
  for (const r of inbound.results) o[await applyResult(trx, conn, map, messageId, r, tried)] += 1;
  return o;
}

/**
 * The tests to run on each specimen asked about, as the machine's codes: the tests ordered on the
 * sample (barcode, else sample code) that have no result yet, and only those the code map knows.
 * A specimen lims does not know, or a sample no longer open for entry, has nothing to run.
 */
export async function answerQueries(db: Db, conn: ConnectionRow, queries: InboundQuery[]): Promise<OrderAnswer[]> {
  const map = codeMapOf(conn);
  const out: OrderAnswer[] = [];
  for (const q of queries) {
    const sample = await sampleOfSpecimen(db, conn.organization_id, q.specimenId);
    const open = sample && (OPEN_FOR_ENTRY as readonly string[]).includes(sample.status);
    const tests = open ? await orderedTests(db, sample.id) : [];
    const done = new Set(
      open && tests.length
        ? (await db.selectFrom('test_results').select('test_id').where('sample_id', '=', sample.id).execute()).map(
            (r) => r.test_id,
          )
        : [],
    );
    const codes = tests
      .filter((t) => !done.has(t.id))
      .flatMap((t) => {
        const e = map.find((m) => m.test_id === t.id);
        return e ? [e.code] : [];
      });
    out.push({
      specimenId: q.specimenId,
      range: q.range,
      patientId: sample?.patient_code ?? '',
      testCodes: codes,
      sample: sample && {
        sampleCode: sample.sample_code,
        sampleType: sample.sample_type,
        stat: sample.priority === 'urgent' || sample.priority === 'high',
        collectedAt: sample.collection_date,
        patientName: [sample.first_name, sample.last_name].filter(Boolean).join(' '),
        dateOfBirth: sample.patient_dob,
        gender: sample.patient_gender,
      },
    });
  }
  return out;
}

/** What lims sends back for an HL7 message: its ACK, or for a query QCK^Q02 and the DSR^Q03. */
function hl7Replies(
  hl7: Hl7Message | null,
  noReply: boolean,
  answers: OrderAnswer[],
  controlId: string,
): { ackText?: string; replies: string[] } {
  if (!hl7 || noReply) return { replies: [] };
  if (!answers[0]) return { ackText: buildAck(hl7, 'AA', '', controlId), replies: [] };
  const r = buildQueryReplies(hl7, answers[0], { qck: controlId, dsr: `${controlId}Q` });
  return { ackText: r.qck, replies: r.dsr ? [r.dsr] : [] };
}

function statusOf(o: Outcome, queries: number): string {
  if (!o.entered && !o.unmatched) return queries ? 'answered' : 'processed';
  if (!o.unmatched) return 'processed';
  return o.entered ? 'partial' : 'unmatched';
}

/**
 * Nothing is stored for a suspended or inactive lab: its listeners stop within one reconcile, and
 * a message that arrives before (on a line still open) is refused here, in the storing
 * transaction, so a lab closed a moment ago gets nothing either. The line is then closed.
 */
async function assertLabOpen(trx: Db, conn: ConnectionRow): Promise<void> {
  if (!(await labIsOpen(trx, conn.organization_id)))
    throw new LabClosedError(`The lab of ${conn.name} is suspended or inactive: nothing from its machines is stored`);
}

/**
 * Stores one message from a machine and applies it, in one transaction: the message log row (raw
 * bytes), each result entered or queued, the audit row. A message that cannot be read is logged as
 * rejected with nothing applied.
 */
export async function receiveMessage(
  db: Db,
  conn: ConnectionRow,
  protocol: 'astm' | 'hl7',
  raw: Buffer,
): Promise<Received> {
  const now = nowIso();
  const actor = machineActor(conn);
  let parsed:
    { inbound: Inbound; type: string; hl7?: Hl7Message; noReply?: boolean } | { error: string; hl7?: Hl7Message };
  try {
    if (protocol === 'hl7') {
      const hl7 = parseHl7(raw.toString('utf8'));
      const [type] = hl7.type.split('^');
      const profile = profileOf(conn, 'hl7');
      if (type === 'ACK')
        parsed = { inbound: { results: [], queries: [], skipped: [] }, type: hl7.type, hl7, noReply: true };
      else if (type === 'QRY') {
        // One order query per message, as machines send it: the first QRD is answered.
        const inbound = inboundFromHl7(hl7, profile);
        parsed = { inbound: { ...inbound, queries: inbound.queries.slice(0, 1) }, type: hl7.type, hl7 };
      } else
        parsed =
          type === 'ORU' || type === 'OUL' || type === 'OML'
            ? { inbound: inboundFromHl7(hl7, profile), type: hl7.type, hl7 }
            : { error: `Message type ${hl7.type} is not taken from machines`, hl7 };
    } else {
      const { messages, incomplete } = astmMessages(raw.toString('latin1'));
      if (incomplete || messages.length !== 1) throw new Error('Not one whole ASTM message (H through L)');
      parsed = { inbound: inboundFromAstm(messages[0]!, profileOf(conn, 'astm')), type: 'ASTM' };
    }
  } catch (err) {
    parsed = { error: err instanceof Error ? err.message : String(err) };
  }
  return db.transaction().execute(async (trx) => {
    await assertLabOpen(trx, conn);
    const msg = await insertMessageRow(trx, {
      organization_id: conn.organization_id,
      connection_id: conn.id,
      direction: 'in',
      protocol,
      raw,
      size: raw.length,
      status: 'rejected',
      message_type: 'type' in parsed ? parsed.type : null,
      results_count: 0,
      unmatched_count: 0,
      ack: null,
      error: null,
      received_at: now,
    });
    await touchConnection(trx, conn.id, now);
    const hl7 = parsed.hl7 ?? null;
    const controlId = `LIMS${msg.id}`;
    if ('error' in parsed) {
      const code: AckCode = hl7 ? 'AE' : 'AR';
      await updateMessageRow(trx, msg.id, {
        status: 'rejected',
        ack: protocol === 'hl7' ? code : 'ACK',
        error: parsed.error.slice(0, 500),
      });
      await writeAudit(trx, actor, {
        action: 'create',
        entity: 'interface_message',
        entityId: msg.id,
        newValues: { connection_id: conn.id, status: 'rejected', error: parsed.error },
      });
      return {
        messageId: msg.id,
        status: 'rejected',
        ack: protocol === 'hl7' ? code : 'ACK',
        ackText: protocol === 'hl7' ? buildAck(hl7, code, parsed.error, controlId) : undefined,
        replies: [],
        answers: [],
        entered: 0,
        unmatched: 0,
        ignored: 0,
      };
    }
    const outcome = await applyInbound(trx, conn, protocol, msg.id, parsed.inbound);
    const answers = parsed.inbound.queries.length ? await answerQueries(trx, conn, parsed.inbound.queries) : [];
    const status = statusOf(outcome, answers.length);
    const ack: AckCode | 'ACK' = protocol === 'hl7' ? 'AA' : 'ACK';
    await updateMessageRow(trx, msg.id, {
      status,
      ack,
      results_count: outcome.entered,
      unmatched_count: outcome.unmatched,
      ignored_count: outcome.ignored,
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'interface_message',
      entityId: msg.id,
      newValues: {
        connection_id: conn.id,
        status,
        results: outcome.entered,
        unmatched: outcome.unmatched,
        ignored: outcome.ignored,
      },
    });
    return {
      messageId: msg.id,
      status,
      ack,
      ...hl7Replies(hl7, parsed.noReply === true, answers, controlId),
      answers,
      ...outcome,
    };
  });
}

/**
 * The text of one ASTM transmission (or file): each H..L message in it is received on its own; a
 * message without its L record is logged as incomplete and nothing of it is applied.
 */
export async function receiveAstmText(db: Db, conn: ConnectionRow, text: string): Promise<Received[]> {
  const { complete, incomplete } = splitMessages(splitRecords(text));
  const out: Received[] = [];
  for (const records of complete)
    out.push(await receiveMessage(db, conn, 'astm', Buffer.from(records.join('\r') + '\r', 'latin1')));
  for (const records of incomplete)
    await logIncomplete(
      db,
      conn,
      'astm',
      Buffer.from(records.join('\r') + '\r', 'latin1'),
      'The message has no L record',
    );
  return out;
}

/** A transmission dropped by the link (timeout, an open record): logged, nothing applied. */
export async function logIncomplete(db: Db, conn: ConnectionRow, protocol: string, raw: Buffer, reason: string) {
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    await assertLabOpen(trx, conn);
    await insertMessageRow(trx, {
      organization_id: conn.organization_id,
      connection_id: conn.id,
      direction: 'in',
      protocol,
      raw,
      size: raw.length,
      status: 'incomplete',
      message_type: null,
      results_count: 0,
      unmatched_count: 0,
      ack: null,
      error: reason.slice(0, 500),
      received_at: now,
    });
    await touchConnection(trx, conn.id, now);
  });
}

/** A message lims sent (an ASTM query answer): logged with whether the machine took it. */
export async function logOutbound(
  db: Db,
  conn: ConnectionRow,
  protocol: string,
  raw: Buffer,
  ok: boolean,
  error?: string,
  messageType = 'ASTM order',
): Promise<number> {
  const row = await insertMessageRow(db, {
    organization_id: conn.organization_id,
    connection_id: conn.id,
    direction: 'out',
    protocol,
    raw,
    size: raw.length,
    status: ok ? 'sent' : 'failed',
    message_type: messageType,
    results_count: 0,
    unmatched_count: 0,
    ack: null,
    error: error ?? null,
    received_at: nowIso(),
  });
  return row.id;
}
