import { randomInt } from 'node:crypto';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { nextSequence } from '../sequences.js';
import { organizationTimezone } from '../settings/service.js';
import { localDate } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  canMoveSample,
  completionRate,
  makeBarcode,
  nextStatuses,
  type SampleStatus,
  type SampleType,
} from '../../shared/samples.js';
import type {
  Sample,
  SampleCollect,
  SampleCreate,
  SampleListQuery,
  SampleStatusChange,
  SampleSummary,
  SampleUpdate,
} from '../../shared/schemas/samples.js';
import {
  barcodeOwner,
  deleteSampleRow,
  findSampleRow,
  insertHistoryRow,
  insertSampleRow,
  pageSamples,
  sampleOwnRow,
  setSampleTests,
  updateSampleRow,
  processingTime,
  sampleCounts,
  sampleHistory,
  testsOfSamples,
  toSample,
} from './repository.js';
import { barcodeReserved, deleteReservation, insertReservation } from './reservation-repository.js';
import { findPatient } from '../patients/repository.js';
import { findUser } from '../users/repository.js';
import { findBillRow } from '../billing/repository.js';
import { announce } from '../events.js';
import { ownedIds } from '../catalogue/repository.js';
import { notify } from '../notifications/service.js';

export async function load(db: Db, organizationId: number, id: number): Promise<Sample> {
  const row = await findSampleRow(db, organizationId, { id });
  if (!row) throw new NotFoundError('Sample', id);
  const tests = (await testsOfSamples(db, [id])).get(id) ?? [];
  return { ...toSample(row, tests), history: await sampleHistory(db, id) };
}

export const getSample = load;

export async function listSamples(db: Db, organizationId: number, q: SampleListQuery) {
  const { rows, total } = await pageSamples(db, organizationId, q);
  const tests = await testsOfSamples(
    db,
    rows.map((r) => r.id),
  );
  return { samples: rows.map((r) => toSample(r, tests.get(r.id) ?? [])), ...pageEnvelope(total, q.page, q.limit) };
}

export async function sampleSummary(db: Db, organizationId: number): Promise<SampleSummary> {
  const counts = await sampleCounts(db, organizationId);
  const by = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;
  const total = counts.reduce((a, c) => a + c.n, 0);
  const withBarcode = counts.reduce((a, c) => a + c.withBarcode, 0);
  const timing = await processingTime(db, organizationId);
  return {
    total,
    pending: by('pending'),
    collected: by('collected'),
    processing: by('processing'),
    completed: by('completed'),
    rejected: by('rejected'),
    with_barcode: withBarcode,
    without_barcode: total - withBarcode,
    completion_rate: completionRate(by('completed'), total),
    avg_processing_minutes: timing.avgMinutes,
    timed_completed: timing.n,
  };
}

/** A new barcode in the spec's format that no sample of this lab has; inside the write transaction. */
export async function freshBarcode(trx: Db, organizationId: number, type: SampleType): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const code = makeBarcode(type, Date.now(), randomInt(1000));
    if (!(await barcodeOwner(trx, organizationId, code)) && !(await barcodeReserved(trx, organizationId, code)))
      return code;
  }
  throw new ConflictError('Could not find a free barcode; try again', 'BARCODE_EXHAUSTED');
}

/**
 * A barcode handed out now for a tube drawn later, away from the lab (a phlebotomist's phone labels
 * it offline): no sample gets it from freshBarcode until `useReservedBarcode` gives it to its tube.
 */
export async function reserveBarcode(
  trx: Db,
  organizationId: number,
  type: SampleType,
  holder: string,
): Promise<string> {
  const code = await freshBarcode(trx, organizationId, type);
  await insertReservation(trx, organizationId, code, holder, nowIso());
  return code;
}

/** A reserved barcode given to its tube: the reservation ends (refused if it was not reserved). */
export async function useReservedBarcode(trx: Db, organizationId: number, barcode: string): Promise<void> {
  if (!(await deleteReservation(trx, organizationId, barcode)))
    throw new ConflictError(`Barcode ${barcode} is not reserved`, 'NOT_RESERVED');
}

async function assertTests(trx: Db, organizationId: number, ids: number[]) {
  if (!ids.length) return;
  const have = await ownedIds(trx, 'tests', organizationId, ids);
  const missing = ids.filter((i) => !have.has(i));
  if (missing.length) throw ValidationError.field('test_ids', `Unknown test id(s): ${missing.join(', ')}`);
}

async function assertCollector(trx: Db, organizationId: number, id: number | null | undefined) {
  if (!id) return;
  const u = await findUser(trx, organizationId, id);
  if (!u || u.is_active !== 1) throw ValidationError.field('collector_id', `Unknown collector ${id}`);
}

/** The acting user's name for custody entries and call logs; the email for the system actor. */
export async function actorName(trx: Db, actor: Actor): Promise<string | null> {
  if (!actor.userId) return actor.email;
  const u = await findUser(trx, actor.organizationId, actor.userId);
  return u ? `${u.first_name} ${u.last_name}` : actor.email;
}

/** A custody entry of a sample (who, when, where, from and to which status). */
export async function addHistory(
  trx: Db,
  actor: Actor,
  sampleId: number,
  from: string | null,
  to: string,
  location: string | null,
  notes: string | null,
) {
  await insertHistoryRow(trx, {
    sample_id: sampleId,
    from_status: from,
    to_status: to,
    changed_by: actor.userId,
    changed_by_name: await actorName(trx, actor),
    location,
    notes,
    created_at: nowIso(),
  });
}

/** What a new sample is: checked by the caller (createSample, or a bill's order). */
export interface NewSample {
  patient_id: number;
  bill_id: number | null;
  sample_type: SampleType;
  container?: string | null;
  collector_id?: number | null;
  location?: string | null;
  priority: string;
  status: 'pending' | 'collected';
  notes?: string | null;
  /** A barcode now even while pending: a bill's tubes get labels at the front desk. */
  barcodeNow?: boolean;
  test_ids: number[];
  /** The rejected sample this one is drawn again for. */
  recollect_of?: number | null;
}

/** Inside an open transaction: code SMP+date+sequence, barcode, the ordered tests, custody history, audit. */
export async function storeSample(trx: Db, actor: Actor, input: NewSample): Promise<number> {
  const day = localDate(await organizationTimezone(trx, actor.organizationId)).replace(/-/g, '');
  const seq = await nextSequence(trx, actor.organizationId, `sample:${day}`);
  const now = nowIso();
  const collected = input.status === 'collected';
  const row = await insertSampleRow(trx, {
    organization_id: actor.organizationId,
    sample_code: `SMP${day}${String(seq).padStart(4, '0')}`,
    barcode: collected || input.barcodeNow ? await freshBarcode(trx, actor.organizationId, input.sample_type) : null,
    patient_id: input.patient_id,
    bill_id: input.bill_id,
    sample_type: input.sample_type,
    container: input.container ?? null,
    collector_id: input.collector_id ?? (collected ? actor.userId : null),
    location: input.location ?? null,
    priority: input.priority,
    status: input.status,
    notes: input.notes ?? null,
    rejection_reason: null,
    collection_date: collected ? now : null,
    completed_at: null,
    recollect_of: input.recollect_of ?? null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  });
  await setSampleTests(trx, row.id, input.test_ids);
  await addHistory(trx, actor, row.id, null, row.status, row.location, input.notes ?? null);
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'sample',
    entityId: row.id,
    newValues: { ...row, test_ids: input.test_ids },
  });
  return row.id;
}

/** Collects (or orders) a sample by hand: checks patient, tests, collector and bill, then stores it. */
export async function createSample(db: Db, actor: Actor, input: SampleCreate): Promise<Sample> {
  const id = await db.transaction().execute(async (trx) => {
    const patient = await findPatient(trx, actor.organizationId, input.patient_id);
    if (!patient) throw ValidationError.field('patient_id', `Unknown patient ${input.patient_id}`);
    await assertTests(trx, actor.organizationId, input.test_ids);
    await assertCollector(trx, actor.organizationId, input.collector_id);
    if (input.bill_id) {
      const bill = await findBillRow(trx, actor.organizationId, input.bill_id);
      if (!bill || bill.patient_id !== input.patient_id)
        throw ValidationError.field('bill_id', "The bill is not this patient's");
    }
    return storeSample(trx, actor, { ...input, bill_id: input.bill_id ?? null });
  });
  return load(db, actor.organizationId, id);
}

export async function updateSample(db: Db, actor: Actor, id: number, input: SampleUpdate): Promise<Sample> {
  await db.transaction().execute(async (trx) => {
    const before = await sampleOwnRow(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Sample', id);
    const patch: Record<string, unknown> = {};
    if (input.barcode !== undefined && input.barcode !== before.barcode) {
      if (before.barcode)
        throw new ConflictError(`Sample ${before.sample_code} already has barcode ${before.barcode}`, 'HAS_BARCODE');
      const taken = await barcodeOwner(trx, actor.organizationId, input.barcode);
      if (taken)
        throw new ConflictError(
          `Barcode ${input.barcode} is already used by sample ${taken.sample_code}`,
          'DUPLICATE_BARCODE',
        );
      patch.barcode = input.barcode;
    }
    if (input.sample_type !== undefined) patch.sample_type = input.sample_type;
    if (input.priority !== undefined) patch.priority = input.priority;
    if (input.location !== undefined) patch.location = input.location ?? null;
    if (input.notes !== undefined) patch.notes = input.notes ?? null;
    if (input.receipt_condition !== undefined) patch.receipt_condition = input.receipt_condition ?? null;
    if (input.collector_id !== undefined) {
      await assertCollector(trx, actor.organizationId, input.collector_id);
      patch.collector_id = input.collector_id ?? null;
    }
    if (input.test_ids !== undefined) {
      await assertTests(trx, actor.organizationId, input.test_ids);
      await setSampleTests(trx, id, input.test_ids, true);
      patch.test_ids = input.test_ids;
    }
    const { test_ids: newTests, ...columns } = patch;
    if (Object.keys(columns).length) await updateSampleRow(trx, id, { ...columns, updated_at: nowIso() });
    if (!Object.keys(patch).length) return;
    const oldValues: Record<string, unknown> = {};
    for (const k of Object.keys(columns)) oldValues[k] = (before as Record<string, unknown>)[k] ?? null;
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'sample',
      entityId: id,
      oldValues,
      newValues: { ...columns, ...(newTests ? { test_ids: newTests } : {}) },
    });
  });
  return load(db, actor.organizationId, id);
}

/** The status machine: illegal moves are 409; every move is kept with who, when, where and notes. */
export async function changeSampleStatus(db: Db, actor: Actor, id: number, input: SampleStatusChange): Promise<Sample> {
  await db.transaction().execute((trx) => moveSample(trx, actor, id, input));
  return load(db, actor.organizationId, id);
}

/** One status move inside an open transaction (a bill's cancellation withdraws its tubes this way). */
export async function moveSample(
  trx: Db,
  actor: Actor,
  id: number,
  input: SampleStatusChange,
  collectorId?: number | null,
): Promise<void> {
  const before = await sampleOwnRow(trx, actor.organizationId, id);
  if (!before) throw new NotFoundError('Sample', id);
  const from = before.status as SampleStatus;
  if (!canMoveSample(from, input.status)) {
    const allowed = nextStatuses(from);
    throw new ConflictError(
      `A ${from} sample cannot move to ${input.status}${allowed.length ? `; it can move to ${allowed.join(' or ')}` : '; it is closed'}`,
      'ILLEGAL_STATUS_CHANGE',
    );
  }
  const now = nowIso();
  const patch: Record<string, unknown> = { status: input.status, updated_at: now };
  if (input.location) patch.location = input.location;
  if (input.status === 'collected') {
    patch.collection_date = now;
    if (!before.barcode)
      patch.barcode = await freshBarcode(trx, actor.organizationId, before.sample_type as SampleType);
    if (collectorId) patch.collector_id = collectorId;
    else if (!before.collector_id) patch.collector_id = actor.userId;
  }
  if (input.status === 'completed') patch.completed_at = now;
  if (input.status === 'rejected') patch.rejection_reason = input.notes ?? null;
  await updateSampleRow(trx, id, patch);
  await addHistory(trx, actor, id, from, input.status, input.location ?? before.location, input.notes ?? null);
  await writeAudit(trx, actor, {
    action: 'update',
    entity: 'sample',
    entityId: id,
    oldValues: { status: from },
    newValues: {
      status: input.status,
      notes: input.notes ?? null,
      ...(patch.collector_id !== undefined ? { collector_id: patch.collector_id } : {}),
    },
  });
  if (input.status === 'rejected') await announceRejection(trx, actor, id, input.notes ?? null);
}

/** A rejected sample: lab managers and whoever drew it (to draw it again) are told, in the same transaction. */
async function announceRejection(trx: Db, actor: Actor, id: number, reason: string | null): Promise<void> {
  const s = (await findSampleRow(trx, actor.organizationId, { id }))!;
  await notify(
    trx,
    actor.organizationId,
    {
      kind: 'sample_rejected',
      sampleCode: s.sample_code,
      patientName: `${s.first_name} ${s.last_name}`.trim(),
      reason,
      collectorId: s.collector_id,
    },
    { by: actor.userId },
  );
}

export async function deleteSample(db: Db, actor: Actor, id: number): Promise<Sample> {
  const sample = await load(db, actor.organizationId, id);
  await db.transaction().execute(async (trx) => {
    await announce(trx, actor, 'sample.deleting', { sample: { id, code: sample.sample_id } });
    await deleteSampleRow(trx, id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'sample',
      entityId: id,
      oldValues: sample as unknown as Record<string, unknown>,
    });
  });
  return sample;
}

/** Collects several pending tubes at once (one draw, several tubes): all or none, each with its custody entry. */
export async function collectSamples(db: Db, actor: Actor, input: SampleCollect): Promise<Sample[]> {
  await db.transaction().execute(async (trx) => {
    await assertCollector(trx, actor.organizationId, input.collector_id);
    for (const id of input.ids) {
      const row = await sampleOwnRow(trx, actor.organizationId, id);
      if (!row) throw ValidationError.field('ids', `Unknown sample ${id}`);
      if (row.status !== 'pending')
        throw new ConflictError(
          `Sample ${row.sample_code} is ${row.status}, not waiting to be collected`,
          'NOT_PENDING',
        );
      await moveSample(
        trx,
        actor,
        id,
        { status: 'collected', location: input.location ?? undefined },
        input.collector_id,
      );
    }
  });
  return Promise.all(input.ids.map((id) => load(db, actor.organizationId, id)));
}

/** What the import and export engine (transfer/) writes and reads through. */
export { SAMPLE_CODE, insertHistoricalSample, type HistoricalSample } from './history.js';

/** A tube's label PDF, for features that print one (the centre portal). */
export { labelPdfForSample } from './print.js';
