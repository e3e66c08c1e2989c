import type { Db } from '../db/connection.js';
import { packageProfiles, packageTests, profileTests } from './repository.js';

/**
 * The catalogue's entry for other features (billing, samples): what an ordered line stands for.
 * The catalogue screens' own rules live in items.ts, tests.ts, profiles.ts and packages.ts.
 */

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

export { jsonList } from './mappers.js';
export { type StarterSummary, loadStarterCatalogue, readStarterCatalogue } from './starter.js';

/** What the import and export engine (transfer/) writes and reads through. */
export { changeTest, insertTest, listTests } from './tests.js';
export { changeProfile, insertProfile, listProfiles } from './profiles.js';
export { changePackage, insertPackage, listPackages } from './packages.js';
export { bandsText, parseBandsText } from './range-text.js';
