import type { Db } from '../db/connection.js';
import { activeItems, packageProfiles, packageTests, profileTests } from './repository.js';

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

/**
 * What lines stand for, in tests: the links of their profiles and packages read in three queries
 * whatever the number of lines, then each line expanded (a package's profiles expand too).
 */
async function lineExpander(db: Db, lines: readonly OrderedLine[]): Promise<(l: OrderedLine) => number[]> {
  const profileIds = lines.flatMap((l) => (l.profile_id ? [l.profile_id] : []));
  const packageIds = lines.flatMap((l) => (l.package_id ? [l.package_id] : []));
  const pkgProfiles = await packageProfiles(db, packageIds);
  const allProfiles = [...profileIds, ...[...pkgProfiles.values()].flat().map((p) => p.id)];
  const profTests = await profileTests(db, allProfiles);
  const pkgTests = await packageTests(db, packageIds);
  return (l) => {
    if (l.test_id) return [l.test_id];
    if (l.profile_id) return (profTests.get(l.profile_id) ?? []).map((t) => t.id);
    if (!l.package_id) return [];
    const viaProfiles = (pkgProfiles.get(l.package_id) ?? []).flatMap((p) => profTests.get(p.id) ?? []);
    return [...viaProfiles, ...(pkgTests.get(l.package_id) ?? [])].map((t) => t.id);
  };
}

/** The tests a bill's lines stand for, once each, in bill order (a package's profiles expand too). */
export async function testsOfLines(db: Db, lines: OrderedLine[]): Promise<number[]> {
  const expand = await lineExpander(db, lines);
  return [...new Set(lines.flatMap(expand))];
}

/** An active item of the lab's catalogue as a patient may order it, with the tests it stands for. */
export interface OrderableItem {
  item_type: 'test' | 'profile' | 'package';
  item_id: number;
  name: string;
  code: string;
  price_paise: number;
  test_ids: number[];
}

/** The lab's active tests, profiles and packages, each kind by name (the portal's choice of tests). */
export async function orderableItems(db: Db, organizationId: number): Promise<OrderableItem[]> {
  const kinds = [
    ['test', 'tests'],
    ['profile', 'test_profiles'],
    ['package', 'test_packages'],
  ] as const;
  const items = (
    await Promise.all(
      kinds.map(async ([type, table]) =>
        (await activeItems(db, table, organizationId)).map((r) => ({ ...r, item_type: type })),
      ),
    )
  ).flat();
  const lines = items.map((i) => ({
    test_id: i.item_type === 'test' ? i.id : null,
    profile_id: i.item_type === 'profile' ? i.id : null,
    package_id: i.item_type === 'package' ? i.id : null,
  }));
  const expand = await lineExpander(db, lines);
  return items.map((i, n) => ({
    item_type: i.item_type,
    item_id: i.id,
    name: i.name,
    code: i.code,
    price_paise: i.price_paise,
    test_ids: [...new Set(expand(lines[n]!))],
  }));
}

export { jsonList } from './mappers.js';
export { type StarterSummary, loadStarterCatalogue, readStarterCatalogue } from './starter.js';

/** What the import and export engine (transfer/) writes and reads through. */
export { changeTest, insertTest, listTests } from './tests.js';
export { changeProfile, insertProfile, listProfiles } from './profiles.js';
export { changePackage, insertPackage, listPackages } from './packages.js';
export { bandsText, parseBandsText } from './range-text.js';
