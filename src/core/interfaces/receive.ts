import type { Db } from '../db/connection.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { labIsOpen, LabClosedError } from '../tenants/service.js';
import { splitMessages, splitRecords, type OrderAnswer } from './astm/records.js';
import { astmMessages, inboundFromAstm, inboundFromHl7, type Inbound } from './inbound.js';
import { buildAck, parseHl7, type AckCode, type Hl7Message } from './hl7/message.js';
import { buildQueryReplies } from './hl7/query.js';
import type { Insertable } from 'kysely';
import {
  insertMessageRow,
  touchConnection,
  updateMessageRow,
  type ConnectionRow,
  type MessageRow,
} from './repository.js';
import type { InterfaceMessagesTable } from './tables.js';
import { answerQueries, applyInbound, machineActor, type Outcome } from './apply-inbound.js';
import { profileOf } from './profile.js';

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
    const msg = await logInbound(trx, conn, protocol, raw, now, {
      status: 'rejected',
      message_type: 'type' in parsed ? parsed.type : null,
      error: null,
    });
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
  await db.transaction().execute((trx) =>
    logInbound(trx, conn, protocol, raw, now, {
      status: 'incomplete',
      message_type: null,
      error: reason.slice(0, 500),
    }),
  );
}

/** What a message's log row says beyond the line and the bytes (counts filled in once applied). */
type MessageOutcome = Pick<Insertable<InterfaceMessagesTable>, 'status' | 'message_type' | 'error'>;

/** A message's log row: on which line, which way, its bytes, and what became of it. */
function messageValues(
  conn: ConnectionRow,
  direction: 'in' | 'out',
  protocol: string,
  raw: Buffer,
  at: string,
  outcome: MessageOutcome,
): Insertable<InterfaceMessagesTable> {
  return {
    organization_id: conn.organization_id,
    connection_id: conn.id,
    direction,
    protocol,
    raw,
    size: raw.length,
    results_count: 0,
    unmatched_count: 0,
    ack: null,
    received_at: at,
    ...outcome,
  };
}

/** A message from a machine logged (its lab open), the line marked as heard from at `now`. */
async function logInbound(
  trx: Db,
  conn: ConnectionRow,
  protocol: string,
  raw: Buffer,
  now: string,
  outcome: MessageOutcome,
): Promise<MessageRow> {
  await assertLabOpen(trx, conn);
  const msg = await insertMessageRow(trx, messageValues(conn, 'in', protocol, raw, now, outcome));
  await touchConnection(trx, conn.id, now);
  return msg;
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
  const row = await insertMessageRow(
    db,
    messageValues(conn, 'out', protocol, raw, nowIso(), {
      status: ok ? 'sent' : 'failed',
      message_type: messageType,
      error: error ?? null,
    }),
  );
  return row.id;
}
