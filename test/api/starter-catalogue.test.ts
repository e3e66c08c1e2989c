import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, PASSWORD, client, login, makeLab, tempDir, type TestLab } from '../helpers.js';
import { openDatabase } from '../../src/core/db/connection.js';
import { systemActor } from '../../src/core/context.js';
import { verifyChain } from '../../src/core/audit/audit.js';
import { setupLab } from '../../src/core/setup/service.js';
import { buildApp } from '../../src/server/app.js';
import {
  loadStarterCatalogue,
  parseStarterCatalogue,
  readStarterCatalogue,
  type StarterCatalogue,
} from '../../src/core/catalogue/starter.js';
import {
  SAMPLE_TYPES,
  type CatalogueTest,
  type CataloguePackage,
  type CatalogueProfile,
} from '../../src/shared/schemas/catalogue.js';
import { raw } from './support.js';

const CATEGORIES = [
  'Haematology',
  'Biochemistry',
  'Diabetes',
  'Lipid',
  'Liver',
  'Kidney',
  'Thyroid',
  'Urine',
  'Serology',
  'Vitamins',
  'Clinical Pathology',
  'Microbiology',
];
const UNITS = [
  'g/dL',
  'cells/cumm',
  'lakhs/cumm',
  'million/cumm',
  '%',
  'fL',
  'pg',
  'mm/hr',
  'mg/dL',
  'U/L',
  'mEq/L',
  'ng/dL',
  'µg/dL',
  'µIU/mL',
  'pg/mL',
  'ng/mL',
  'mg/L',
  'IU/mL',
  'sec',
  'mL/min/1.73m²',
];
const QUALITATIVE = ['Negative', 'Non-reactive', 'No growth', 'Not seen'];
const NUMERIC_RANGE = /^(?:(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)|[<>]\d+(?:\.\d+)?)$/;

const catalogue = readStarterCatalogue();
const testPrice = new Map(catalogue.tests.map((t) => [t.code, t.price]));
const profilePrice = new Map(catalogue.profiles.map((p) => [p.code, p.price]));
const sum = (codes: string[], prices: Map<string, number>) => codes.reduce((s, c) => s + (prices.get(c) ?? NaN), 0);

describe('the shipped starter catalogue file', () => {
  it('has at least 60 tests, 10 profiles and 5 packages with unique codes', () => {
    expect(catalogue.tests.length).toBeGreaterThanOrEqual(60);
    expect(catalogue.profiles.length).toBeGreaterThanOrEqual(10);
    expect(catalogue.packages.length).toBeGreaterThanOrEqual(5);
    for (const list of [catalogue.tests, catalogue.profiles, catalogue.packages]) {
      expect(new Set(list.map((i) => i.code)).size).toBe(list.length);
    }
    // Codes are shared by tests, profiles and packages on the OP Bill pickers; keep them apart.
    const all = [...catalogue.tests, ...catalogue.profiles, ...catalogue.packages].map((i) => i.code);
    expect(new Set(all).size).toBe(all.length);
  });

  it('gives every test a category, sample type, turnaround, positive price and a sensible unit and range', () => {
    for (const t of catalogue.tests) {
      const where = `${t.code} ${t.name}`;
      expect(CATEGORIES, where).toContain(t.category);
      expect(SAMPLE_TYPES, where).toContain(t.sample_type);
      expect(t.turnaround_hours, where).toBeGreaterThan(0);
      expect(t.price, where).toBeGreaterThan(0);
      expect(t.description, where).toBeTruthy();
      if (t.unit != null) expect(UNITS, where).toContain(t.unit);
      const range = t.normal_range;
      if (range == null) continue;
      if (QUALITATIVE.includes(range)) {
        expect(t.unit, `${where}: a qualitative test has no unit`).toBeNull();
        continue;
      }
      const m = NUMERIC_RANGE.exec(range);
      expect(m, `${where}: range ${range}`).not.toBeNull();
      if (m?.[1] !== undefined) expect(Number(m[1]), `${where}: range ${range}`).toBeLessThan(Number(m[2]));
    }
  });

  it('prices each profile below the sum of its tests and each package below the sum of what it includes', () => {
    for (const p of catalogue.profiles) {
      expect(p.price, p.code).toBeGreaterThan(0);
      expect(p.price, p.code).toBeLessThan(sum(p.tests, testPrice));
    }
    for (const p of catalogue.packages) {
      expect(p.price, p.code).toBeGreaterThan(0);
      expect(p.duration, p.code).toBeTruthy();
      expect(p.price, p.code).toBeLessThan(sum(p.tests, testPrice) + sum(p.profiles, profilePrice));
    }
  });

  it('never includes the same test twice in a package, directly or through its profiles', () => {
    const testsOf = new Map(catalogue.profiles.map((p) => [p.code, p.tests]));
    for (const p of catalogue.packages) {
      const all = [...p.tests, ...p.profiles.flatMap((c) => testsOf.get(c) ?? [])];
      expect(
        all.filter((c, i) => all.indexOf(c) !== i),
        p.code,
      ).toEqual([]);
    }
  });
});

describe('a broken starter catalogue is refused, naming the entry', () => {
  const file = 'starter-catalogue.json';
  type Raw = { version: number; tests: object[]; profiles: object[]; packages: object[] };
  const { tests, profiles, packages } = catalogue;
  const good = (): Raw => JSON.parse(JSON.stringify({ version: 1, tests, profiles, packages })) as Raw;

  it('accepts the shipped content as is', () => {
    expect(parseStarterCatalogue(good(), file).tests).toHaveLength(catalogue.tests.length);
  });

  it.each([
    ['a negative price', 'tests', 0, { price: -1 }, /tests\[0\] \(code HB\): price: Price cannot be negative/],
    ['a misspelt key', 'tests', 1, { normal_rnage: '1-2' }, /tests\[1\] \(code TLC\).*normal_rnage/],
    ['an unknown sample type', 'tests', 2, { sample_type: 'Saliva' }, /tests\[2\].*Sample type must be one of/],
    ['a repeated code', 'tests', 3, { code: 'HB' }, /tests\[3\] repeats the code HB/],
    [
      'a profile with an unknown test',
      'profiles',
      0,
      { tests: ['HB', 'NOPE'] },
      /\(code CBC\) lists unknown test codes NOPE/,
    ],
    ['a package with an unknown profile', 'packages', 0, { profiles: ['GHOST'] }, /unknown profile codes GHOST/],
  ] as const)('%s', (_label, section, index, patch, message) => {
    const c = good();
    Object.assign(c[section][index]!, patch);
    expect(() => parseStarterCatalogue(c, file)).toThrow(message);
  });

  it('a wrong version', () => {
    expect(() => parseStarterCatalogue({ ...good(), version: 2 }, file)).toThrow(/version must be 1/);
  });
});

async function listAll(lab: TestLab) {
  const tests = (await lab.admin.get('/api/tests')).json<{ tests: CatalogueTest[] }>().tests;
  const profiles = (await lab.admin.get('/api/test-profiles')).json<{ profiles: CatalogueProfile[] }>().profiles;
  const packages = (await lab.admin.get('/api/test-packages')).json<{ packages: CataloguePackage[] }>().packages;
  return { tests, profiles, packages };
}

function expectMatchesFile(c: StarterCatalogue, got: Awaited<ReturnType<typeof listAll>>) {
  const testByCode = new Map(got.tests.map((t) => [t.code, t]));
  const profileByCode = new Map(got.profiles.map((p) => [p.code, p]));
  for (const t of c.tests) {
    expect(testByCode.get(t.code), t.code).toMatchObject({
      name: t.name,
      price: t.price,
      unit: t.unit,
      normal_range: t.normal_range,
      status: 'active',
    });
  }
  for (const p of c.profiles) {
    const stored = profileByCode.get(p.code);
    expect(
      stored?.test_details.map((t) => t.code),
      p.code,
    ).toEqual(p.tests);
    expect(
      stored?.test_ids.every((id) => got.tests.some((t) => t.id === id)),
      p.code,
    ).toBe(true);
  }
  for (const p of c.packages) {
    const stored = got.packages.find((x) => x.code === p.code);
    expect(stored, p.code).toMatchObject({ price: p.price, duration: p.duration });
    expect(stored?.test_details.map((t) => t.code)).toEqual(p.tests);
    expect(stored?.profile_details.map((x) => x.code)).toEqual(p.profiles);
    expect(stored?.profile_ids.every((id) => got.profiles.some((x) => x.id === id))).toBe(true);
  }
}

describe('loading into a lab', () => {
  let lab: TestLab;
  beforeAll(async () => {
    lab = await makeLab();
  });
  afterAll(async () => lab.close());

  it('creates every test, profile and package, listed by the API with their links', async () => {
    const summary = await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
      tests: true,
      profiles: true,
      packages: true,
    });
    expect(summary).toEqual({
      tests: catalogue.tests.length,
      profiles: catalogue.profiles.length,
      packages: catalogue.packages.length,
      skipped: 0,
      notes: [],
    });
    const got = await listAll(lab);
    expect(got.tests).toHaveLength(catalogue.tests.length);
    expect(got.profiles).toHaveLength(catalogue.profiles.length);
    expect(got.packages).toHaveLength(catalogue.packages.length);
    expectMatchesFile(catalogue, got);
  });

  it('keeps the first price in the price history and writes an audit row per item', async () => {
    const hb = (await lab.admin.get('/api/tests?search=Haemoglobin'))
      .json<{ tests: CatalogueTest[] }>()
      .tests.find((t) => t.code === 'HB')!;
    const history = (await lab.admin.get(`/api/pricing/test/${hb.id}/history`)).json<{
      history: { old_price: number | null; new_price: number }[];
    }>();
    expect(history.history).toEqual([expect.objectContaining({ old_price: null, new_price: testPrice.get('HB') })]);
    const audited = await lab.database.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', lab.organizationId)
      .where('action', '=', 'create')
      .where('entity', 'in', ['test', 'test_profile', 'test_package'])
      .executeTakeFirstOrThrow();
    expect(Number(audited.n)).toBe(catalogue.tests.length + catalogue.profiles.length + catalogue.packages.length);
    expect((await verifyChain(lab.database.db)).ok).toBe(true);
  });

  it('loading again changes nothing and reports every item as skipped', async () => {
    const before = await listAll(lab);
    const again = await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
      tests: true,
      profiles: true,
      packages: true,
    });
    expect(again).toMatchObject({
      tests: 0,
      profiles: 0,
      packages: 0,
      skipped: catalogue.tests.length + catalogue.profiles.length + catalogue.packages.length,
    });
    expect(await listAll(lab)).toEqual(before);
  });
});

describe('loading parts of it', () => {
  let lab: TestLab;
  beforeAll(async () => {
    lab = await makeLab();
  });
  afterAll(async () => lab.close());

  it('profiles without tests bring the tests they need, say so, and keep a lab test of the same code', async () => {
    const own = await lab.admin.post('/api/tests', { name: 'Hemoglobin (HPLC)', code: 'hb', price: 175 });
    expect(own.statusCode).toBe(201);
    const ownId = own.json<{ test: CatalogueTest }>().test.id;

    const summary = await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
      tests: false,
      profiles: true,
      packages: false,
    });
    const needed = new Set(catalogue.profiles.flatMap((p) => p.tests));
    expect(summary).toMatchObject({
      tests: needed.size - 1,
      profiles: catalogue.profiles.length,
      packages: 0,
      skipped: 1,
    });
    expect(summary.notes).toEqual([
      `Tests were not chosen, but the starter profiles include ${needed.size}; those were loaded too.`,
    ]);

    const { tests, profiles, packages } = await listAll(lab);
    expect(tests.map((t) => t.code).sort()).toEqual([...needed].sort());
    expect(packages).toEqual([]);
    const hb = tests.find((t) => t.code === 'HB')!;
    expect(hb).toMatchObject({ id: ownId, name: 'Hemoglobin (HPLC)', price: 175 });
    expect(profiles.find((p) => p.code === 'CBC')?.test_ids).toContain(ownId);
  });

  it('packages alone bring their profiles and tests', async () => {
    const summary = await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
      tests: false,
      profiles: false,
      packages: true,
    });
    expect(summary.packages).toBe(catalogue.packages.length);
    const { packages } = await listAll(lab);
    expect(packages).toHaveLength(catalogue.packages.length);
    for (const p of packages) expect(p.test_ids.length + p.profile_ids.length).toBeGreaterThan(0);
  });

  it('nothing chosen loads nothing', async () => {
    expect(
      await loadStarterCatalogue(lab.database.db, systemActor(lab.organizationId, 'test'), {
        tests: false,
        profiles: false,
        packages: false,
      }),
    ).toEqual({
      tests: 0,
      profiles: 0,
      packages: 0,
      skipped: 0,
      notes: [],
    });
  });
});

describe('setting up a lab with the import switches', () => {
  const setup = {
    labName: 'Starter Lab',
    adminName: 'Asha Admin',
    adminEmail: ADMIN_EMAIL,
    adminPassword: PASSWORD,
    timezone: 'Asia/Kolkata' as const,
    currency: 'INR' as const,
    dateFormat: 'DD/MM/YYYY' as const,
  };

  it('setupLab loads the catalogue with the lab, and GET /api/tests lists it', async () => {
    const database = openDatabase(join(tempDir(), 'lims.db'));
    const app = await buildApp({ database, logger: false });
    try {
      const result = await setupLab(database.db, {
        ...setup,
        importSampleTests: true,
        importSampleProfiles: true,
        importSamplePackages: true,
      });
      expect(result.catalogue).toMatchObject({
        tests: catalogue.tests.length,
        profiles: catalogue.profiles.length,
        packages: catalogue.packages.length,
      });
      await app.ready();
      const admin = client(app, await login(app, ADMIN_EMAIL, PASSWORD), result.adminId, ADMIN_EMAIL);
      const res = await admin.get('/api/tests?search=TSH');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ tests: CatalogueTest[] }>().tests).toEqual([
        expect.objectContaining({ code: 'TSH', unit: 'µIU/mL', price: testPrice.get('TSH'), sample_type: 'Blood' }),
      ]);
      expect((await admin.get('/api/tests')).json<{ tests: CatalogueTest[] }>().tests).toHaveLength(
        catalogue.tests.length,
      );
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('the web wizard (POST /api/setup) loads what its switches ask for, and nothing when they are off', async () => {
    const database = openDatabase(join(tempDir(), 'lims.db'));
    const app = await buildApp({ database, logger: false });
    await app.ready();
    try {
      const res = await raw(app, { method: 'POST', url: '/api/setup', payload: { ...setup, importSampleTests: true } });
      expect(res.statusCode).toBe(201);
      const count = async (table: 'tests' | 'test_profiles' | 'test_packages') =>
        Number(
          (
            await database.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect([await count('tests'), await count('test_profiles'), await count('test_packages')]).toEqual([
        catalogue.tests.length,
        0,
        0,
      ]);
    } finally {
      await app.close();
      await database.close();
    }
    const plain = openDatabase(join(tempDir(), 'lims.db'));
    try {
      const result = await setupLab(plain.db, {
        ...setup,
        importSampleTests: false,
        importSampleProfiles: false,
        importSamplePackages: false,
      });
      expect(result.catalogue).toBeNull();
      expect(await plain.db.selectFrom('tests').select('id').execute()).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
