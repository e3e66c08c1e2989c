import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { tubeOf, tubeSampleType, type TubeId } from '../../shared/tubes.js';
import { packageProfiles, packageTests, profileTests } from '../catalogue/repository.js';
import { testTubes } from '../catalogue/repository.js';
import { writeAudit } from '../audit/audit.js';
import { storeSample } from './service.js';
import { deleteSampleRow, pendingSamplesOfBill } from './repository.js';

/** A billed line: one of test, profile or package. */
export interface OrderedLine {
  test_id: number | null;
  profile_id: number | null;
  package_id: number | null;
}

/** The tests a bill's lines stand for, once each, in bill order (a package's profiles expand too). */
export async function testsOfLines(db: Db, lines: OrderedLine[]): Promise<number[]> {
  const profileIds = lines.flatMap((l) => (l.profile_id ? [l.profile_id] : []));
  const packageIds = lines.flatMap((l) => (l.package_id ? [l.package_id] : []));
  const pkgProfiles = await packageProfiles(db, packageIds);
  const allProfiles = [...profileIds, ...[...pkgProfiles.values()].flat().map((p) => p.id)];
  const profTests = await profileTests(db, allProfiles);
  const pkgTests = await packageTests(db, packageIds);
  const out: number[] = [];
  const add = (id: number) => {
    if (!out.includes(id)) out.push(id);
  };
  for (const l of lines) {
    if (l.test_id) add(l.test_id);
    if (l.profile_id) for (const t of profTests.get(l.profile_id) ?? []) add(t.id);
    if (l.package_id) {
      for (const p of pkgProfiles.get(l.package_id) ?? []) for (const t of profTests.get(p.id) ?? []) add(t.id);
      for (const t of pkgTests.get(l.package_id) ?? []) add(t.id);
    }
  }
  return out;
}

/**
 * The order of a bill: one pending sample per tube with the billed tests on it, each with its
 * barcode so the labels can be printed at the front desk and scanned when the tube is drawn.
 * Inside the bill's transaction.
 */
export async function orderSamplesForBill(
  trx: Db,
  actor: Actor,
  bill: { id: number; patient_id: number; bill_number: string },
  lines: OrderedLine[],
): Promise<number[]> {
  const tubes = new Map<TubeId, number[]>();
  for (const t of await testTubes(trx, await testsOfLines(trx, lines))) {
    const tube = tubeOf(t);
    tubes.set(tube, [...(tubes.get(tube) ?? []), t.id]);
  }
  const ids: number[] = [];
  for (const [tube, testIds] of tubes) {
    ids.push(
      await storeSample(trx, actor, {
        patient_id: bill.patient_id,
        bill_id: bill.id,
        sample_type: tubeSampleType(tube),
        container: tube,
        priority: 'normal',
        status: 'pending',
        notes: `Ordered by bill ${bill.bill_number}`,
        barcodeNow: true,
        test_ids: testIds,
      }),
    );
  }
  return ids;
}

/**
 * A cancelled or deleted bill's tubes not drawn yet are withdrawn, inside its transaction: removed
 * (they were never drawn, so they are not rejections and do not count in the rejection rate), with
 * an audit row each. Tubes already drawn stay: their results are the lab's record.
 */
export async function withdrawOrderOfBill(trx: Db, actor: Actor, billId: number, reason: string): Promise<void> {
  for (const s of await pendingSamplesOfBill(trx, actor.organizationId, billId)) {
    await deleteSampleRow(trx, s.id);
    await writeAudit(trx, actor, {
      action: 'delete',
      entity: 'sample',
      entityId: s.id,
      oldValues: { ...s, notes: reason },
    });
  }
}
