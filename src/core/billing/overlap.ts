import type { Db } from '../db/connection.js';
import { DomainError } from '../errors.js';
import { packageProfiles, packageTests, profileTests } from '../catalogue/repository.js';
import { billOverlaps, type OverlapLine } from '../../shared/bill-overlap.js';
import type { ResolvedLine } from './lines.js';

/** Each line with the tests it stands for (a package's profiles expanded), for the overlap check. */
async function linesWithTests(db: Db, lines: readonly ResolvedLine[]): Promise<OverlapLine[]> {
  const packageIds = lines.flatMap((l) => (l.package_id ? [l.package_id] : []));
  const pkgProfiles = await packageProfiles(db, packageIds);
  const profileIds = [
    ...lines.flatMap((l) => (l.profile_id ? [l.profile_id] : [])),
    ...[...pkgProfiles.values()].flat().map((p) => p.id),
  ];
  const profTests = await profileTests(db, profileIds);
  const pkgTests = await packageTests(db, packageIds);
  return lines.map((l) => {
    const tests = new Map<number, string>();
    const add = (t: { id: number; name: string }) => tests.set(t.id, t.name);
    if (l.test_id) add({ id: l.test_id, name: l.name });
    if (l.profile_id) for (const t of profTests.get(l.profile_id) ?? []) add(t);
    if (l.package_id) {
      for (const p of pkgProfiles.get(l.package_id) ?? []) for (const t of profTests.get(p.id) ?? []) add(t);
      for (const t of pkgTests.get(l.package_id) ?? []) add(t);
    }
    return {
      item_type: l.item_type,
      item_id: (l.test_id ?? l.profile_id ?? l.package_id)!,
      name: l.name,
      tests: [...tests].map(([id, name]) => ({ id, name })),
    };
  });
}

/**
 * A lab does not charge a test twice: a bill whose lines share tests (CBC and a package holding
 * CBC) is refused with 409 DUPLICATE_ITEM, each overlap under its line, unless the biller confirmed it.
 */
export async function assertNoOverlap(db: Db, lines: readonly ResolvedLine[], confirmed: boolean): Promise<void> {
  if (confirmed || lines.length < 2) return;
  const overlaps = billOverlaps(await linesWithTests(db, lines));
  if (!overlaps.length) return;
  throw new DomainError(
    409,
    'DUPLICATE_ITEM',
    `${overlaps.map((o) => o.message).join('; ')}. Remove the duplicate, or send confirm_duplicates: true to charge it anyway`,
    overlaps.map((o) => ({ path: `items.${o.line}`, message: o.message })),
  );
}
