import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { findPayerRow } from '../payers/repository.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type {
  Delivery,
  DeliveryListQuery,
  DeliveryPage,
  Receiver,
  ReceiverCreate,
  ReceiverUpdate,
} from '../../shared/schemas/interop-out.js';
import type { ResultScope } from '../results/service.js';
import {
  deleteReceiverRow,
  deliveryPage,
  findDelivery,
  findReceiverRow,
  insertDeliveryRow,
  insertReceiverRow,
  openDelivery,
  receiverNameTaken,
  receiverRows,
  receiversFor,
  updateDeliveryRow,
  type DeliveryListRow,
  type ReceiverListRow,
} from './repository.js';
import { verifiedReport } from './report.js';
import { updateLabRow } from '../db/lab-row.js';
import { reportHead, uncalledCriticals } from '../results/entry-repository.js';
import { findSampleRow } from '../samples/repository.js';
import { findBillRow } from '../billing/repository.js';
import { buildOru } from './hl7.js';
import { buildBundle } from './fhir.js';
import { receiverPolicy } from './delivery.js';
import { hostRefusal, refusalMessage, urlHost } from '../net/outbound.js';

/** Reports out: the messages of a verified report, the receivers, the delivery queue. */

/** A message control id: unique, 20 characters at most (MSH-10 is ST 199 in 2.5.1; many engines keep 20). */
export const newMessageId = () => randomUUID().replace(/-/g, '').slice(0, 20).toUpperCase();

export async function reportHl7(db: Db, organizationId: number, sampleId: number, scope: ResultScope) {
  const report = await verifiedReport(db, organizationId, sampleId, { scope });
  return { text: buildOru(report, { messageId: newMessageId() }), sampleCode: report.sample.code };
}

export async function reportFhir(db: Db, organizationId: number, sampleId: number, scope: ResultScope) {
  const report = await verifiedReport(db, organizationId, sampleId, { scope });
  return { bundle: buildBundle(report, { messageId: newMessageId() }), sampleCode: report.sample.code };
}

function toReceiver(r: ReceiverListRow): Receiver {
  return {
    id: Number(r.id),
    name: r.name,
    kind: r.kind,
    host: r.host,
    port: r.port === null ? null : Number(r.port),
    url: r.url,
    payer_id: r.payer_id === null ? null : Number(r.payer_id),
    payer_name: r.payer_name ?? null,
    enabled: Number(r.enabled) === 1,
    sent: Number(r.sent ?? 0),
    waiting: Number(r.waiting ?? 0),
    failed: Number(r.failed ?? 0),
    last_sent_at: (r.last_sent_at as string | null) ?? null,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toDelivery(r: DeliveryListRow): Delivery {
  return {
    id: Number(r.id),
    receiver_id: Number(r.receiver_id),
    receiver_name: r.receiver_name,
    kind: r.kind,
    sample_id: Number(r.sample_id),
    sample_code: r.sample_code,
    message_id: r.message_id,
    status: r.status,
    attempts: Number(r.attempts),
    next_attempt_at: r.next_attempt_at,
    response: r.response,
    last_error: r.last_error,
    created_at: r.created_at,
    sent_at: r.sent_at,
  };
}

export async function listReceivers(db: Db, organizationId: number): Promise<Receiver[]> {
  return (await receiverRows(db, organizationId).execute()).map(toReceiver);
}

async function getReceiver(db: Db, organizationId: number, id: number): Promise<Receiver> {
  const row = await findReceiverRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Receiver', id);
  return toReceiver(row);
}

type Fields = Pick<Receiver, 'name' | 'kind' | 'host' | 'port' | 'url' | 'payer_id' | 'enabled'>;

/** The receiver as a whole after a change: an MLLP one needs host and port, an HTTP one a URL. */
async function checkReceiver(
  trx: Db,
  organizationId: number,
  f: Fields,
  outbound: { allowPrivate: boolean },
  id?: number,
): Promise<Fields> {
  const policy = receiverPolicy(outbound.allowPrivate);
  if (f.kind === 'mllp') {
    if (!f.host) throw ValidationError.field('host', 'An MLLP receiver needs the host of the interface engine');
    if (!f.port) throw ValidationError.field('port', 'An MLLP receiver needs the port of the interface engine');
    const refused = hostRefusal(f.host, policy);
    if (refused) throw ValidationError.field('host', refusalMessage(refused, policy));
  } else {
    if (!f.url) throw ValidationError.field('url', 'An HTTP receiver needs the URL the FHIR Bundle is sent to');
    const host = urlHost(f.url);
    const refused = host ? hostRefusal(host, policy) : null;
    if (refused) throw ValidationError.field('url', refusalMessage(refused, policy));
  }
  if (f.payer_id !== null && !(await findPayerRow(trx, organizationId, f.payer_id)))
    throw ValidationError.field('payer_id', `Payer ${f.payer_id} does not exist`);
  if (await receiverNameTaken(trx, organizationId, f.name, id))
    throw new ConflictError(`A receiver named ${f.name} already exists`, 'NAME_TAKEN');
  // The fields of the other kind are cleared: the row never holds both (a CHECK says so too).
  return f.kind === 'mllp' ? { ...f, url: null } : { ...f, host: null, port: null };
}

const auditValues = (f: Fields) => ({ ...f });

export async function createReceiver(
  db: Db,
  actor: Actor,
  input: ReceiverCreate,
  outbound: { allowPrivate: boolean },
): Promise<Receiver> {
  return db.transaction().execute(async (trx) => {
    const f = await checkReceiver(
      trx,
      actor.organizationId,
      {
        name: input.name,
        kind: input.kind,
        host: input.host ?? null,
        port: input.port ?? null,
        url: input.url ?? null,
        payer_id: input.payer_id ?? null,
        enabled: input.enabled,
      },
      outbound,
    );
    const now = nowIso();
    const id = await insertReceiverRow(trx, {
      organization_id: actor.organizationId,
      ...f,
      enabled: f.enabled ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'interop_receiver',
      entityId: id,
      newValues: auditValues(f),
    });
    return getReceiver(trx, actor.organizationId, id);
  });
}

export async function updateReceiver(
  db: Db,
  actor: Actor,
  id: number,
  input: ReceiverUpdate,
  outbound: { allowPrivate: boolean },
): Promise<Receiver> {
  return db.transaction().execute(async (trx) => {
    const old = await getReceiver(trx, actor.organizationId, id);
    const merged: Fields = {
      name: input.name ?? old.name,
      kind: input.kind ?? old.kind,
      host: input.host !== undefined ? input.host : old.host,
      port: input.port !== undefined ? input.port : old.port,
      url: input.url !== undefined ? input.url : old.url,
      payer_id: input.payer_id !== undefined ? input.payer_id : old.payer_id,
      enabled: input.enabled ?? old.enabled,
    };
    const f = await checkReceiver(trx, actor.organizationId, merged, outbound, id);
    await updateLabRow(trx, 'interop_receivers', actor.organizationId, id, {
      ...f,
      enabled: f.enabled ? 1 : 0,
      updated_at: nowIso(),
    });
    const changes = diff(auditValues(old), auditValues(f));
    if (changes)
      await writeAudit(trx, actor, {
        action: 'update',
        entity: 'interop_receiver',
        entityId: id,
        oldValues: changes.oldValues,
        newValues: changes.newValues,
      });
    return getReceiver(trx, actor.organizationId, id);
  });
}

export async function deleteReceiver(db: Db, actor: Actor, id: number): Promise<Receiver> {
  return db.transaction().execute(async (trx) => {
    const old = await getReceiver(trx, actor.organizationId, id);
    await deleteReceiverRow(trx, actor.organizationId, id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'interop_receiver',
      entityId: id,
      oldValues: { ...auditValues(old), deliveries: old.sent + old.waiting + old.failed },
    });
    return old;
  });
}

export async function listDeliveries(db: Db, organizationId: number, q: DeliveryListQuery): Promise<DeliveryPage> {
  const { rows, total } = await deliveryPage(db, organizationId, q);
  return { deliveries: rows.map(toDelivery), ...pageEnvelope(total, q.page, q.limit) };
}

/** A failed delivery goes back to the queue, attempts counted afresh. */
export async function retryDelivery(db: Db, actor: Actor, id: number): Promise<Delivery> {
  return db.transaction().execute(async (trx) => {
    const row = await findDelivery(trx, actor.organizationId, id);
    if (!row) throw new NotFoundError('Delivery', id);
    if (row.status !== 'failed')
      throw new ConflictError(`Delivery ${id} is ${row.status}; only a failed delivery is tried again`, 'NOT_FAILED');
    await updateDeliveryRow(trx, id, { status: 'pending', attempts: 0, next_attempt_at: nowIso(), claimed_at: null });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'interop_delivery',
      entityId: id,
      oldValues: { status: 'failed' },
      newValues: { status: 'pending', retried: true },
    });
    return toDelivery((await findDelivery(trx, actor.organizationId, id))!);
  });
}

/**
 * Queues a verified report for every enabled receiver it is for (all reports, or those of bills
 * charged to the receiver's payer), once per receiver; in the transaction that completed the
 * sample, so a report is queued exactly when it is verified. The sender pushes it after the commit.
 */
export async function queueReportOut(trx: Db, organizationId: number, sampleId: number): Promise<number> {
  const head = await reportHead(trx, organizationId, sampleId);
  if (!head || head.status !== 'completed' || !head.reported_at) return 0;
  // A critical value nobody has telephoned holds the report; the logged call queues it.
  if ((await uncalledCriticals(trx, sampleId)).length) return 0;
  const sample = await findSampleRow(trx, organizationId, { id: sampleId });
  const bill = sample?.bill_id ? await findBillRow(trx, organizationId, sample.bill_id) : undefined;
  const payerId = bill?.payer_id ?? null;
  const now = nowIso();
  let queued = 0;
  for (const r of await receiversFor(trx, organizationId, payerId)) {
    if (await openDelivery(trx, Number(r.id), sampleId, head.reported_at)) continue;
    await insertDeliveryRow(trx, {
      organization_id: organizationId,
      receiver_id: Number(r.id),
      sample_id: sampleId,
      message_id: newMessageId(),
      next_attempt_at: now,
      created_at: now,
    });
    queued += 1;
  }
  return queued;
}
