import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { packageCreateSchema, profileCreateSchema, testCreateSchema } from '../../shared/schemas/catalogue.js';
import { insertTest } from './tests.js';
import { codesOf } from './repository.js';
import { insertProfile } from './profiles.js';
import { insertPackage } from './packages.js';

/**
 * The starter catalogue shipped in data/: a common Indian lab menu with illustrative prices that
 * `lims setup --sample-data` and the web setup wizard load, and that every lab then edits.
 */

/** Relative to this module: dist/src/core/catalogue when built, src/core/catalogue under vitest. */
const CANDIDATES = ['../../../../data/starter-catalogue.json', '../../../data/starter-catalogue.json'];

// Entries use the API's create schemas, with links written as codes (ids do not exist yet).
// strict(): a misspelt key in the file is a bug to report, not a field to drop silently.
const codeSchema = testCreateSchema.shape.code;
const codeList = (label: string) => z.array(codeSchema, { error: `${label} must be a list of codes` });
const testEntry = testCreateSchema.strict();
const profileEntry = profileCreateSchema
  .omit({ test_ids: true })
  .extend({ tests: codeList('tests').min(1, 'A profile needs at least one test') })
  .strict();
const packageEntry = packageCreateSchema
  .omit({ test_ids: true, profile_ids: true })
  .extend({ tests: codeList('tests').default([]), profiles: codeList('profiles').default([]) })
  .strict()
  .refine((p) => p.tests.length + p.profiles.length > 0, 'A package needs at least one test or profile');
const fileSchema = z
  .object({
    version: z.literal(1, { error: 'version must be 1' }),
    note: z.string().optional(),
    /** The published tables the age- and sex-specific ranges come from, each naming its tests. */
    sources: z
      .array(
        z
          .object({ tests: z.array(z.string()).min(1), ages: z.string(), citation: z.string().min(1), use: z.string() })
          .strict(),
      )
      .optional(),
    sources_note: z.string().optional(),
    tests: z.array(z.unknown()),
    profiles: z.array(z.unknown()),
    packages: z.array(z.unknown()),
  })
  .strict();

export type StarterTest = z.infer<typeof testEntry>;
export type StarterProfile = z.infer<typeof profileEntry>;
export type StarterPackage = z.infer<typeof packageEntry>;

export interface StarterCatalogue {
  file: string;
  tests: StarterTest[];
  profiles: StarterProfile[];
  packages: StarterPackage[];
}

export interface StarterOptions {
  tests: boolean;
  profiles: boolean;
  packages: boolean;
}

export interface StarterSummary {
  /** Items created by this load. */
  tests: number;
  profiles: number;
  packages: number;
  /** Items not created because the lab already has an item with that code. */
  skipped: number;
  /** Plain-language remarks, e.g. tests loaded only because the chosen profiles need them. */
  notes: string[];
}

function locate(): string {
  const tried: string[] = [];
  for (const rel of CANDIDATES) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
    tried.push(path);
  }
  throw new Error(`The starter catalogue is missing; looked for ${tried.join(' and ')}`);
}

function entryLabel(section: string, index: number, raw: unknown): string {
  const code = raw && typeof raw === 'object' && 'code' in raw ? String(raw.code) : null;
  return code ? `${section}[${index}] (code ${code})` : `${section}[${index}]`;
}

function parseEntries<T>(file: string, section: string, raws: unknown[], schema: z.ZodType<T>): T[] {
  return raws.map((raw, i) => {
    const r = schema.safeParse(raw);
    if (r.success) return r.data;
    const problems = r.error.issues.map((iss) => `${iss.path.join('.') || 'entry'}: ${iss.message}`).join('; ');
    throw new Error(`The starter catalogue ${file} is invalid: ${entryLabel(section, i, raw)}: ${problems}`);
  });
}

function assertUniqueCodes(file: string, section: string, items: { code: string }[]): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.code)) {
      throw new Error(`The starter catalogue ${file} is invalid: ${section}[${i}] repeats the code ${item.code}`);
    }
    seen.add(item.code);
  });
}

function assertKnown(file: string, owner: string, field: string, codes: string[], known: Set<string>): void {
  const missing = codes.filter((c) => !known.has(c));
  if (missing.length) {
    throw new Error(`The starter catalogue ${file} is invalid: ${owner} lists unknown ${field} ${missing.join(', ')}`);
  }
}

/** Reads and checks the shipped file; any problem is a packaging bug and names the entry. */
export function readStarterCatalogue(): StarterCatalogue {
  const file = locate();
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`The starter catalogue ${file} is not valid JSON: ${(err as Error).message}`);
  }
  return parseStarterCatalogue(json, file);
}

/** Checks every entry with the API's schemas, unique codes and links that resolve within the file. */
export function parseStarterCatalogue(json: unknown, file: string): StarterCatalogue {
  const top = fileSchema.safeParse(json);
  if (!top.success) {
    const problems = top.error.issues.map((iss) => `${iss.path.join('.') || 'file'}: ${iss.message}`).join('; ');
    throw new Error(`The starter catalogue ${file} is invalid: ${problems}`);
  }
  const tests = parseEntries(file, 'tests', top.data.tests, testEntry);
  const profiles = parseEntries(file, 'profiles', top.data.profiles, profileEntry);
  const packages = parseEntries(file, 'packages', top.data.packages, packageEntry);
  assertUniqueCodes(file, 'tests', tests);
  assertUniqueCodes(file, 'profiles', profiles);
  assertUniqueCodes(file, 'packages', packages);
  const testCodes = new Set(tests.map((t) => t.code));
  const profileCodes = new Set(profiles.map((p) => p.code));
  profiles.forEach((p, i) => assertKnown(file, `profiles[${i}] (code ${p.code})`, 'test codes', p.tests, testCodes));
  packages.forEach((p, i) => {
    assertKnown(file, `packages[${i}] (code ${p.code})`, 'test codes', p.tests, testCodes);
    assertKnown(file, `packages[${i}] (code ${p.code})`, 'profile codes', p.profiles, profileCodes);
  });
  return { file, tests, profiles, packages };
}

interface Selection {
  tests: StarterTest[];
  profiles: StarterProfile[];
  packages: StarterPackage[];
  notes: string[];
}

/** What to load: the chosen parts plus whatever they link to (a profile cannot exist without its tests). */
export function selectStarter(catalogue: StarterCatalogue, opts: StarterOptions): Selection {
  const notes: string[] = [];
  const packages = opts.packages ? catalogue.packages : [];
  const neededProfiles = new Set(packages.flatMap((p) => p.profiles));
  const profiles = opts.profiles ? catalogue.profiles : catalogue.profiles.filter((p) => neededProfiles.has(p.code));
  if (!opts.profiles && profiles.length) {
    notes.push(`Profiles were not chosen, but the starter packages include ${profiles.length}; those were loaded too.`);
  }
  const neededTests = new Set([...profiles.flatMap((p) => p.tests), ...packages.flatMap((p) => p.tests)]);
  const tests = opts.tests ? catalogue.tests : catalogue.tests.filter((t) => neededTests.has(t.code));
  if (!opts.tests && tests.length) {
    const by = opts.profiles ? 'profiles' : 'packages';
    notes.push(`Tests were not chosen, but the starter ${by} include ${tests.length}; those were loaded too.`);
  }
  return { tests, profiles, packages, notes };
}

type CodeMap = Map<string, number>;

async function existingCodes(
  trx: Db,
  table: 'tests' | 'test_profiles' | 'test_packages',
  organizationId: number,
): Promise<CodeMap> {
  return codesOf(trx, table, organizationId);
}

function idsOf(codes: string[], map: CodeMap, owner: string): number[] {
  return codes.map((code) => {
    const id = map.get(code);
    if (id === undefined)
      throw new Error(`Starter catalogue: ${owner} needs test or profile ${code}, which is not in the lab`);
    return id;
  });
}

/**
 * Inserts the selection inside the caller's transaction through the same insert helpers as the API
 * (rows, price history, audit). An item whose code the lab already has is skipped (never
 * overwritten), and profiles and packages link to the lab's item of that code.
 */
async function insertSelection(trx: Db, actor: Actor, sel: Selection): Promise<StarterSummary> {
  const org = actor.organizationId;
  const summary: StarterSummary = { tests: 0, profiles: 0, packages: 0, skipped: 0, notes: sel.notes };

  const testIds = await existingCodes(trx, 'tests', org);
  for (const t of sel.tests) {
    if (testIds.has(t.code)) {
      summary.skipped += 1;
      continue;
    }
    testIds.set(t.code, (await insertTest(trx, actor, t)).id);
    summary.tests += 1;
  }

  const profileIds = await existingCodes(trx, 'test_profiles', org);
  for (const { tests, ...p } of sel.profiles) {
    if (profileIds.has(p.code)) {
      summary.skipped += 1;
      continue;
    }
    const test_ids = idsOf(tests, testIds, `profile ${p.code}`);
    profileIds.set(p.code, (await insertProfile(trx, actor, { ...p, test_ids })).id);
    summary.profiles += 1;
  }

  const packageIds = await existingCodes(trx, 'test_packages', org);
  for (const { tests, profiles, ...p } of sel.packages) {
    if (packageIds.has(p.code)) {
      summary.skipped += 1;
      continue;
    }
    const test_ids = idsOf(tests, testIds, `package ${p.code}`);
    const profile_ids = idsOf(profiles, profileIds, `package ${p.code}`);
    packageIds.set(p.code, (await insertPackage(trx, actor, { ...p, test_ids, profile_ids })).id);
    summary.packages += 1;
  }

  await writeAudit(trx, actor, {
    action: 'import',
    entity: 'starter_catalogue',
    newValues: {
      tests: summary.tests,
      profiles: summary.profiles,
      packages: summary.packages,
      skipped: summary.skipped,
    },
  });
  return summary;
}

/**
 * Loads the chosen parts of the starter catalogue in one transaction (all or nothing). Safe to run
 * again: items whose code exists are skipped. Given a transaction (setupLab's), it joins it; such a
 * caller passes the catalogue it read beforehand, so no file is read while the write lock is held.
 */
export async function loadStarterCatalogue(
  db: Db,
  actor: Actor,
  opts: StarterOptions,
  catalogue?: StarterCatalogue,
): Promise<StarterSummary> {
  if (!opts.tests && !opts.profiles && !opts.packages)
    return { tests: 0, profiles: 0, packages: 0, skipped: 0, notes: [] };
  const selection = selectStarter(catalogue ?? readStarterCatalogue(), opts);
  if (db.isTransaction) return insertSelection(db, actor, selection);
  return db.transaction().execute((trx) => insertSelection(trx, actor, selection));
}
