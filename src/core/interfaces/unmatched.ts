import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { enterResult, getResult } from '../results/service.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import type { TestResult } from '../../shared/schemas/results.js';
import type {
  Unmatched,
  UnmatchedAssign,
  UnmatchedListQuery,
  UnmatchedReason,
  UnmatchedStatus,
} from '../../shared/schemas/connections.js';
import { codeMapOf } from './service.js';
import { convertValue, machineActor, mapEntryOf, sampleOfSpecimen } from './apply-inbound.js';
import {
  testNames,
  findConnectionRow,
  findUnmatched,
  pageUnmatched,
  updateUnmatchedRow,
  type UnmatchedListRow,
} from './repository.js';

async function toUnmatched(db: Db, organizationId: number, r: UnmatchedListRow): Promise<Unmatched> {
  const { code_map, ...rest } = r;
  const sample = r.status === 'open' ? await sampleOfSpecimen(db, organizationId, r.specimen_id) : undefined;
  return {
    ...rest,
    reason: r.reason as UnmatchedReason,
    status: r.status as UnmatchedStatus,
    sample_id: sample?.id ?? null,
    sample_code: sample?.sample_code ?? null,
    test_id: mapEntryOf(codeMapOf({ code_map }), r.code)?.test_id ?? null,
  };
}

export async function listUnmatched(db: Db, organizationId: number, q: UnmatchedListQuery) {
  const { rows, total } = await pageUnmatched(db, organizationId, q);
  const unmatched: Unmatched[] = [];
  for (const r of rows) unmatched.push(await toUnmatched(db, organizationId, r));
  return { unmatched, ...pageEnvelope(total, q.page, q.limit) };
}

async function openRow(trx: Db, organizationId: number, id: number): Promise<UnmatchedListRow> {
  const row = await findUnmatched(trx, organizationId, id);
  if (!row) throw new NotFoundError('Unmatched result', id);
  if (row.status !== 'open') throw new ConflictError(`This result was already ${row.status}`, 'UNMATCHED_CLOSED');
  return row;
}

/**
 * A technician says which sample and test an unmatched value belongs to: it is entered as the
 * machine's result (its service account as technician, its equipment as instrument) through the
 * same path as a typed one, never verified; the code map's factor applies when it maps the code to
 * that test. The assignment is audited under the technician.
 */
export async function assignUnmatched(
  db: Db,
  actor: Actor,
  id: number,
  input: UnmatchedAssign,
): Promise<{ unmatched: Unmatched; result: TestResult }> {
  const resultId = await db.transaction().execute(async (trx) => {
    const row = await openRow(trx, actor.organizationId, id);
    const conn = await findConnectionRow(trx, actor.organizationId, row.connection_id);
    if (!conn) throw new NotFoundError('Connection', row.connection_id);
    const sampleId = input.sample_id ?? (await sampleOfSpecimen(trx, actor.organizationId, input.sample!.trim()))?.id;
    if (!sampleId) throw ValidationError.field('sample', `No sample has the barcode or sample ID ${input.sample}`);
    const entry = mapEntryOf(codeMapOf(conn), row.code);
    const factor = entry && entry.test_id === input.test_id ? entry.factor : null;
    // A value in another unit than the test's is not entered as if it were in the test's: the code
    // map converts it (its factor), else the technician maps the code first. Nothing is guessed.
    const [test] = await testNames(trx, actor.organizationId, [input.test_id]);
    if (test?.unit && row.unit && !factor && test.unit.trim().toLowerCase() !== row.unit.trim().toLowerCase())
      throw ValidationError.field(
        'test_id',
        `The machine sent ${row.unit}; ${test.name} is in ${test.unit}. Map the code ${row.code} to it with the factor that converts, then assign`,
      );
    const newId = await enterResult(
      trx,
      machineActor(conn),
      {
        sample_id: sampleId,
        test_id: input.test_id,
        result_value: convertValue(row.value, factor),
        unit: factor ? undefined : (row.unit ?? undefined),
        notes: undefined,
        equipment_id: conn.equipment_id ?? undefined,
      },
      // The machine's flag travels with the value it came with, wherever it is placed.
      { instrumentFlag: row.flag },
    );
    const now = nowIso();
    await updateUnmatchedRow(trx, id, {
      status: 'assigned',
      result_id: newId,
      resolved_by: actor.userId,
      resolved_at: now,
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'interface_unmatched',
      entityId: id,
      oldValues: { status: 'open' },
      newValues: { status: 'assigned', sample_id: sampleId, test_id: input.test_id, result_id: newId },
    });
    return newId;
  });
  const row = await findUnmatched(db, actor.organizationId, id);
  return {
    unmatched: await toUnmatched(db, actor.organizationId, row!),
    result: await getResult(db, actor.organizationId, resultId),
  };
}

export async function discardUnmatched(db: Db, actor: Actor, id: number, reason: string): Promise<Unmatched> {
  await db.transaction().execute(async (trx) => {
    await openRow(trx, actor.organizationId, id);
    await updateUnmatchedRow(trx, id, {
      status: 'discarded',
      discard_reason: reason,
      resolved_by: actor.userId,
      resolved_at: nowIso(),
    });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'interface_unmatched',
      entityId: id,
      oldValues: { status: 'open' },
      newValues: { status: 'discarded', reason },
    });
  });
  const row = await findUnmatched(db, actor.organizationId, id);
  return toUnmatched(db, actor.organizationId, row!);
}
