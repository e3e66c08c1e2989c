import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { tubeOf, tubeSampleType, type TubeId } from '../../shared/tubes.js';
import { testsOfLines, type OrderedLine } from '../catalogue/service.js';
import { testTubes } from '../catalogue/repository.js';
import { writeAudit } from '../audit/audit.js';
import { storeSample } from './service.js';
import { ConflictError } from '../errors.js';
import { nowIso } from '../context.js';
import {
  deleteSampleRow,
  pendingSamplesOfBill,
  setSampleTests,
  testsOnSamplesOfBill,
  updateSampleRow,
} from './repository.js';

type BillOfOrder = { id: number; patient_id: number; bill_number: string };

/** A new pending tube of a bill's tests, with its barcode now (the labels print at the desk). */
function orderTube(trx: Db, actor: Actor, bill: BillOfOrder, tube: TubeId, testIds: number[], notes: string) {
  return storeSample(trx, actor, {
    patient_id: bill.patient_id,
    bill_id: bill.id,
    sample_type: tubeSampleType(tube),
    container: tube,
    priority: 'normal',
    status: 'pending',
    notes,
    barcodeNow: true,
    test_ids: testIds,
  });
}

/**
 * The order of a bill: one pending sample per tube with the billed tests on it, each with its
 * barcode so the labels can be printed at the front desk and scanned when the tube is drawn.
 * Inside the bill's transaction.
 */
export async function orderSamplesForBill(
  trx: Db,
  actor: Actor,
  bill: BillOfOrder,
  lines: OrderedLine[],
): Promise<number[]> {
  const tubes = new Map<TubeId, number[]>();
  for (const t of await testTubes(trx, await testsOfLines(trx, lines))) {
    const tube = tubeOf(t);
    tubes.set(tube, [...(tubes.get(tube) ?? []), t.id]);
  }
  const ids: number[] = [];
  for (const [tube, testIds] of tubes)
    ids.push(await orderTube(trx, actor, bill, tube, testIds, `Ordered by bill ${bill.bill_number}`));
  return ids;
}

/**
 * A cancelled or deleted bill's tubes not drawn yet are withdrawn, inside its transaction: removed
 * (they were never drawn, so they are not rejections and do not count in the rejection rate), with
 * an audit row each. Tubes already drawn stay: their results are the lab's record.
 */
export async function withdrawOrderOfBill(trx: Db, actor: Actor, billId: number, reason: string): Promise<void> {
  for (const s of await pendingSamplesOfBill(trx, actor.organizationId, billId))
    await withdrawTube(trx, actor, s, reason);
}

/** One tube not drawn yet taken off the order, as a cancelled bill's are. */
async function withdrawTube(
  trx: Db,
  actor: Actor,
  s: { id: number } & Record<string, unknown>,
  reason: string,
): Promise<void> {
  await deleteSampleRow(trx, s.id);
  await writeAudit(trx, actor, {
    action: 'delete',
    entity: 'sample',
    entityId: s.id,
    oldValues: { ...s, notes: reason },
  });
}

/**
 * The tests of a saved bill changed, inside its transaction. A removed test leaves its tube (a tube
 * left with no test is withdrawn); once a tube holding it is drawn the change is refused (409
 * SAMPLE_COLLECTED naming the tube): it is in the lab's hands. An added test joins the bill's tube
 * of its kind still waiting to be drawn, or gets a new one, as at billing.
 */
export async function amendOrderOfBill(
  trx: Db,
  actor: Actor,
  bill: BillOfOrder,
  change: { added: number[]; removed: number[] },
  reason: string,
): Promise<void> {
  const rows = await testsOnSamplesOfBill(trx, actor.organizationId, bill.id);
  const removed = new Set(change.removed);
  for (const r of rows) {
    if (removed.has(r.test_id) && r.status !== 'pending')
      throw new ConflictError(
        `${r.test_name} cannot be taken off bill ${bill.bill_number}: its sample ${r.sample_code} is already ${r.status}`,
        'SAMPLE_COLLECTED',
      );
  }
  const pending = new Map<number, { id: number; sample_code: string; container: string | null; tests: number[] }>();
  for (const r of rows) {
    if (r.status !== 'pending') continue;
    const s = pending.get(r.id) ?? { id: r.id, sample_code: r.sample_code, container: r.container, tests: [] };
    s.tests.push(r.test_id);
    pending.set(r.id, s);
  }
  const fresh = new Map<TubeId, number[]>();
  for (const t of await testTubes(trx, change.added)) {
    const tube = tubeOf(t);
    const same = [...pending.values()].find((s) => s.container === tube);
    if (same) same.tests.push(t.id);
    else fresh.set(tube, [...(fresh.get(tube) ?? []), t.id]);
  }
  const added = new Set(change.added);
  for (const s of pending.values()) {
    const before = rows.filter((r) => r.id === s.id).map((r) => r.test_id);
    const after = s.tests.filter((t) => !removed.has(t));
    if (after.length === before.length && after.every((t) => !added.has(t))) continue;
    if (!after.length) {
      await withdrawTube(
        trx,
        actor,
        { id: s.id, sample_code: s.sample_code, container: s.container, test_ids: before },
        reason,
      );
      continue;
    }
    await setSampleTests(trx, s.id, after, true);
    await updateSampleRow(trx, s.id, { updated_at: nowIso() });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'sample',
      entityId: s.id,
      oldValues: { test_ids: before },
      newValues: { test_ids: after, notes: reason },
    });
  }
  for (const [tube, testIds] of fresh)
    await orderTube(trx, actor, bill, tube, testIds, `Ordered by bill ${bill.bill_number} (${reason})`);
}
