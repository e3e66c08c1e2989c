import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { createPatient } from '../../src/core/patients/service.js';
import { addPayment, createBill } from '../../src/core/billing/service.js';
import { createUser } from '../../src/core/users/service.js';
import { createDoctor } from '../../src/core/doctors/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { verifyResult } from '../../src/core/results/verification.js';
import { addPayerPrice, createPayer } from '../../src/core/payers/service.js';
import { createSupplier } from '../../src/core/inventory/suppliers.js';
import { createInventoryItem } from '../../src/core/inventory/service.js';
import { createEquipment } from '../../src/core/equipment/service.js';
import { completeService, createService } from '../../src/core/equipment/work.js';
import { addDays, localDate } from '../../src/shared/time.js';
import { menuFiles } from '../api/menu-files.js';
import { cleanup, lims, limsInProcess, openLabDatabase, setUpLab, tempDir } from './helpers.js';

/**
 * `lims import` and `lims export`: every entity leaves one lab and enters an empty one
 * with the same data, exit codes and output are what scripts rely on, and a refused file leaves the
 * lab as it was. Most command lines run in this process through runCli (what bin/lims.js calls);
 * the exit codes and the pipe to stdout are checked on the built binary. The engine's rules in
 * detail: test/api/data-import.test.ts.
 */

const ENTITIES = [
  'users',
  'doctors',
  'tests',
  'profiles',
  'packages',
  'payers',
  'payer_prices',
  'patients',
  'bills',
  'samples',
  'results',
  'suppliers',
  'inventory',
  'equipment',
  'calibrations',
  'maintenance',
] as const;

/** The format each entity travels in from lab A to lab B (CSV unless said). */
const FORMAT_OF: Partial<Record<(typeof ENTITIES)[number], 'xlsx' | 'json'>> = {
  patients: 'xlsx',
  tests: 'xlsx',
  bills: 'json',
  results: 'json',
  users: 'json',
  inventory: 'xlsx',
  equipment: 'json',
  payers: 'xlsx',
  payer_prices: 'xlsx',
};

let a: string;
let b: string;
let files: string;

beforeAll(async () => {
  a = tempDir();
  b = tempDir();
  files = tempDir('lims-files-');
  await setUpLab(a, ['--sample-data']);
  await setUpLab(b);
  // Lab A gets one of everything, through the services the UI uses.
  const database = await openLabDatabase(a);
  try {
    const org = (await primaryOrganization(database.db))!;
    const system = systemActor(org.id);
    const password = 'a-strong-secret-9';
    const tech = await createUser(database.db, system, {
      email: 'tech@citylab.in',
      first_name: 'Tara',
      last_name: 'Naik',
      role: 'lab_technician',
      password,
    });
    const validator = await createUser(database.db, system, {
      email: 'validator@citylab.in',
      first_name: 'Vinay',
      last_name: 'Bhat',
      role: 'validator',
      password,
    });
    const doctor = await createDoctor(database.db, system, {
      first_name: 'Meena',
      last_name: 'Kulkarni',
      email: 'dr.meena@clinic.in',
      specialization: 'Cardiology',
      consultation_fee: 400,
      status: 'active',
      can_sign_in: false,
    });
    const codes = await database.db
      .selectFrom('tests')
      .select(['id', 'code'])
      .where('organization_id', '=', org.id)
      .execute();
    const test = (code: string) => codes.find((t) => t.code === code)!.id;
    const p1 = await createPatient(database.db, system, {
      first_name: 'राजेश',
      last_name: 'वर्मा',
      date_of_birth: '1971-08-15',
      gender: 'Male',
      phone: '9845012345',
      address: 'House 4, "Green" Lane\nJayanagar',
      allergies: '=SUM(1,2)',
    });
    const p2 = await createPatient(database.db, system, { first_name: 'Walk', last_name: 'In', age: 34 });
    const bill = await createBill(database.db, system, {
      patient_id: p1.id,
      doctor_id: doctor.id,
      items: [
        { item_type: 'test', item_id: test('HB'), qty: 1, discount_percent: 0 },
        { item_type: 'test', item_id: test('FBS'), qty: 2, discount_percent: 10 },
      ],
      discount_percentage: 5,
      tax_percentage: 0,
      payment_method: 'cash',
    });
    await addPayment(database.db, system, bill.id, { amount: 100, method: 'upi', reference: 'UPI-77' });
    await createBill(database.db, system, {
      patient_id: p2.id,
      items: [{ item_type: 'test', item_id: test('HB'), qty: 1, discount_percent: 0 }],
      discount_percentage: 0,
      tax_percentage: 0,
      payment_method: 'cash',
    });
    const sample = await createSample(database.db, system, {
      patient_id: p1.id,
      sample_type: 'Blood',
      test_ids: [test('HB'), test('FBS')],
      priority: 'urgent',
      status: 'collected',
    });
    const as = (u: { id: number; email: string }, role: Actor['role']): Actor => ({
      userId: u.id,
      email: u.email,
      role,
      organizationId: org.id,
    });
    const hb = await createResult(database.db, as(tech, 'lab_technician'), {
      sample_id: sample.id,
      test_id: test('HB'),
      result_value: '13.5',
    });
    await createResult(database.db, as(tech, 'lab_technician'), {
      sample_id: sample.id,
      test_id: test('FBS'),
      result_value: '182',
    });
    await verifyResult(database.db, as(validator, 'validator'), hb.id!);
    // Payers, stock and equipment.
    await createPayer(database.db, system, {
      name: 'Sunrise Corporate Health',
      type: 'corporate',
      gstin: '29AAACS1234F1Z5',
      address: '12 MG Road, Bengaluru',
      credit_limit: 50000,
      payment_terms_days: 45,
      discount_percent: 10,
      status: 'active',
    });
    await createPayer(database.db, system, {
      name: 'Star Health TPA',
      type: 'insurance',
      payment_terms_days: 30,
      discount_percent: 0,
      status: 'inactive',
    });
    // The corporate payer's price list (a test and a profile; one price ended), and a bill charged to it.
    const sunrise = (await database.db
      .selectFrom('payers')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('name', '=', 'Sunrise Corporate Health')
      .executeTakeFirst())!.id;
    const today0 = localDate(org.timezone ?? 'Asia/Kolkata');
    const profile = (await database.db
      .selectFrom('test_profiles')
      .select('id')
      .where('organization_id', '=', org.id)
      .orderBy('code')
      .executeTakeFirst())!.id;
    await addPayerPrice(database.db, system, sunrise, {
      item_type: 'test',
      item_id: test('HB'),
      price: 120,
      effective_from: addDays(today0, -10),
    });
    await addPayerPrice(database.db, system, sunrise, {
      item_type: 'test',
      item_id: test('HB'),
      price: 150,
      effective_from: addDays(today0, -400),
      effective_to: addDays(today0, -11),
    });
    await addPayerPrice(database.db, system, sunrise, {
      item_type: 'profile',
      item_id: profile,
      price: 999.5,
      effective_from: addDays(today0, -10),
    });
    const walkIn = await createPatient(database.db, system, { first_name: 'Corporate', last_name: 'Staff', age: 41 });
    await createBill(database.db, system, {
      patient_id: walkIn.id,
      payer_id: sunrise,
      items: [{ item_type: 'test', item_id: test('HB'), qty: 1, discount_percent: 0 }],
      discount_percentage: 0,
      tax_percentage: 0,
      payment_method: 'cash',
    });
    await createSupplier(database.db, system, {
      name: 'Medisource Diagnostics',
      contact_person: 'Anil Mehta',
      gstin: '27AAPFU0939F1ZV',
      lead_time_days: 5,
    });
    const today = localDate(org.timezone ?? 'Asia/Kolkata');
    await createInventoryItem(database.db, system, {
      item_code: 'GLU-R1',
      item_name: 'Glucose reagent (GOD-POD)',
      kind: 'reagent',
      category: 'Biochemistry',
      unit: 'tests',
      current_stock: 480,
      minimum_stock: 100,
      maximum_stock: 1000,
      unit_cost: 12.5,
      supplier: 'Medisource Diagnostics',
      status: 'active',
      storage_temp: '2-8 °C',
      expiry_date: addDays(today, 200),
      lot_number: 'LOT-7',
    });
    await createInventoryItem(database.db, system, {
      item_code: 'TIPS-200',
      item_name: 'Pipette tips 200 µL',
      kind: 'consumable',
      category: 'Plastics',
      unit: 'pcs',
      current_stock: 0,
      minimum_stock: 500,
      unit_cost: 0.8,
      status: 'active',
    });
    const analyser = await createEquipment(database.db, system, {
      kind: 'machine',
      name: 'Chemistry analyser',
      model: 'AU480',
      serial_number: 'AU480-2210-0042',
      type: 'Chemistry Analyzer',
      location: 'Biochemistry',
      installed_on: '2024-04-01',
      status: 'operational',
    });
    await createEquipment(database.db, system, {
      kind: 'instrument',
      name: 'Reagent fridge',
      serial_number: 'FR-02',
      type: 'Environmental',
      min_temperature: 2,
      max_temperature: 8,
      status: 'operational',
    });
    const cal = await createService(database.db, system, 'calibration', {
      equipment_id: analyser.id,
      type: 'Routine',
      due_date: addDays(today, -30),
      interval_days: 180,
      description: 'Two-point',
    });
    await completeService(database.db, system, 'calibration', cal.id, {
      performed_by: 'Ravi (Beckman)',
      performed_at: addDays(today, -29),
      accuracy: 99.1,
    });
    await createService(database.db, system, 'maintenance', {
      equipment_id: analyser.id,
      type: 'Preventive',
      due_date: addDays(today, 10),
      interval_days: 90,
    });
  } finally {
    await database.close();
  }
}, 120_000);
afterAll(cleanup);

const sorted = (text: string) => text.split('\r\n').sort().join('\r\n');
const csvRows = (text: string) => parse(text, { columns: true, bom: true }) as Record<string, string>[];
/**
 * A verified result imported by the command line: lab A's verifier is kept as the previous
 * system's, and no lims user of lab B released it (the server's operator did).
 */
const releasedByCommandLine = (r: Record<string, string>) =>
  r.status === 'verified' ? { ...r, verified_by: '', previous_verifier: r.previous_verifier || r.verified_by } : r;

describe('every entity round-trips', () => {
  it('exports every entity from one lab as CSV (and some as XLSX and JSON)', async () => {
    for (const entity of ENTITIES) {
      for (const format of ['csv', ...(FORMAT_OF[entity] ? [FORMAT_OF[entity]] : [])]) {
        const r = await limsInProcess([
          '--data-dir',
          a,
          'export',
          entity,
          '--out',
          join(files, `a-${entity}.${format}`),
        ]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(
          new RegExp(`^exported \\d+ ${entity} to .*a-${entity}\\.${format} \\(${format}; job \\d+\\)\\n$`),
        );
      }
    }
  }, 180_000);

  it('imports them into an empty lab (mixing formats) and exports the same data again', async () => {
    for (const entity of ENTITIES) {
      // Lab B's superadmin is lab A's (the same email): matched, so users come in with --update.
      const args = ['--data-dir', b, 'import', entity, join(files, `a-${entity}.${FORMAT_OF[entity] ?? 'csv'}`)];
      if (entity === 'users') args.push('--update');
      const r = await limsInProcess(args);
      expect(r.code, `${entity}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
    }
    for (const entity of ENTITIES) {
      const r = await limsInProcess(['--data-dir', b, 'export', entity, '--out', join(files, `b-${entity}.csv`)]);
      expect(r.code, r.stderr).toBe(0);
      const before = readFileSync(join(files, `a-${entity}.csv`), 'utf8');
      const after = readFileSync(join(files, `b-${entity}.csv`), 'utf8');
      expect(after.split('\r\n').length, entity).toBeGreaterThan(entity === 'packages' ? 2 : 1);
      // Patients list newest first; the imported ones were numbered in file order, so compare the rows as sets.
      if (entity === 'patients') expect(sorted(after)).toBe(sorted(before));
      else if (entity === 'results') expect(csvRows(after)).toEqual(csvRows(before).map(releasedByCommandLine));
      else expect(after, entity).toBe(before);
    }
    // What came across, in lab B's own words.
    const rows = (entity: string) =>
      parse(readFileSync(join(files, `b-${entity}.csv`), 'utf8'), { columns: true, bom: true }) as Record<
        string,
        string
      >[];
    expect(
      rows('users')
        .map((u) => u.email)
        .sort(),
    ).toEqual(['admin@citylab.in', 'tech@citylab.in', 'validator@citylab.in']);
    expect(rows('doctors')).toMatchObject([{ email: 'dr.meena@clinic.in', consultation_fee: '400' }]);
    expect(
      rows('patients')
        .map((p) => p.first_name)
        .sort(),
    ).toEqual(['Corporate', 'Walk', 'राजेश']);
    const bills = rows('bills');
    expect(bills).toHaveLength(3);
    // The bill charged to the corporate payer keeps its payer, and the payer its balance from it.
    expect(bills.map((x) => x.payer_name)).toEqual(['', '', 'Sunrise Corporate Health']);
    expect(bills[2]).toMatchObject({ final_amount: '120', payment_status: 'unpaid' });
    expect(bills[0]).toMatchObject({
      doctor_email: 'dr.meena@clinic.in',
      paid_amount: '100',
      payment_status: 'partial',
    });
    expect(JSON.parse(bills[0]!.items!)).toHaveLength(2);
    expect(rows('samples').length).toBeGreaterThanOrEqual(3);
    expect(
      rows('results')
        .map((r) => `${r.test_code} ${r.result_value} ${r.status} ${r.verified_by}|${r.previous_verifier}`)
        .sort(),
    ).toEqual(['FBS 182 completed |', 'HB 13.5 verified |validator@citylab.in']);
    expect(rows('payers').map((p) => [p.name, p.gstin, p.state_code, p.credit_limit, p.status])).toEqual([
      ['Star Health TPA', '', '', '', 'inactive'],
      ['Sunrise Corporate Health', '29AAACS1234F1Z5', '29', '50000', 'active'],
    ]);
    expect(rows('payers').map((p) => `${p.balance} ${p.bills}`)).toEqual(['0 0', '120 1']);
    expect(
      rows('payer_prices').map((p) => `${p.payer_name} ${p.item_type} ${p.item_code} ${p.price} ${p.effective_to}`),
    ).toEqual([
      'Sunrise Corporate Health test HB 150 ' + addDays(localDate('Asia/Kolkata'), -11),
      'Sunrise Corporate Health test HB 120 ',
      expect.stringMatching(/^Sunrise Corporate Health profile \S+ 999.5 $/),
    ]);
    expect(rows('suppliers')).toMatchObject([{ name: 'Medisource Diagnostics', lead_time_days: '5', deliveries: '1' }]);
    expect(rows('inventory').map((i) => [i.item_code, i.current_stock, i.stock_status, i.supplier])).toEqual([
      ['GLU-R1', '480', 'in_stock', 'Medisource Diagnostics'],
      ['TIPS-200', '0', 'low_stock', ''],
    ]);
    expect(rows('equipment').map((e) => `${e.serial_number} ${e.kind} ${e.max_temperature}`)).toEqual([
      'AU480-2210-0042 machine ',
      'FR-02 instrument 8',
    ]);
    // The completed calibration and the one its interval scheduled; the open maintenance record.
    expect(rows('calibrations').map((c) => `${c.status} ${c.performed_by} ${c.accuracy}`)).toEqual([
      'completed Ravi (Beckman) 99.1',
      'scheduled  ',
    ]);
    expect(rows('maintenance').map((m) => `${m.equipment_serial_number} ${m.type} ${m.status}`)).toEqual([
      'AU480-2210-0042 Preventive scheduled',
    ]);
    const verify = await limsInProcess(['--data-dir', b, 'audit', 'verify']);
    expect(verify.code, verify.stderr).toBe(0);
  }, 180_000);
});

describe('lims import', () => {
  it('refuses a file with bad rows: errors on stderr by row and column, all of them in a report, nothing stored', async () => {
    const file = join(files, 'bad-patients.csv');
    writeFileSync(
      file,
      'first_name,last_name,date_of_birth,gender\nAsha,Rao,1990-01-01,Female\nBad,Date,31/02/1988,Male\nNo,Gender,1990-01-01,X\n',
    );
    const before = await limsInProcess(['--data-dir', b, 'export', 'patients']);
    const r = await limsInProcess(['--data-dir', b, 'import', 'patients', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(
      "  row 3, column date_of_birth: 31/02/1988 is not a date (write YYYY-MM-DD, or DD/MM/YYYY as the lab's dates are set)",
    );
    expect(lines[1]).toBe('  row 4, column gender: Gender must be Male, Female or Other (got "X")');
    const last = lines[2]!;
    expect(last).toMatch(
      /^lims: bad-patients\.csv: 2 errors in 3 rows; nothing was stored; every error is listed in (.+)$/,
    );
    const report = /listed in (.+)$/.exec(last)![1]!;
    expect(readFileSync(report, 'utf8')).toContain('31/02/1988 is not a date');
    const after = await limsInProcess(['--data-dir', b, 'export', 'patients']);
    expect(after.stdout).toBe(before.stdout);
  });

  it('--dry-run stores nothing; --output json gives scripts one line to read', async () => {
    const file = join(files, 'dry.csv');
    writeFileSync(file, 'first_name,date_of_birth\nDry,1990-01-01\n');
    const dry = await limsInProcess(['--data-dir', b, 'import', 'patients', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      'checked 1 patients in dry.csv: every row is valid (1 new, 0 updated if imported); nothing was stored (--dry-run)\n',
    );
    const json = await limsInProcess(['--data-dir', b, 'import', 'patients', file, '--output', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'completed', entity: 'patients', rows: 1, inserted: 1, errors: 0 });
  });

  it('refuses a Windows-1252 file with how to save it as UTF-8', async () => {
    const file = join(files, 'latin.csv');
    writeFileSync(file, Buffer.from('first_name,date_of_birth\nJos\xe9,1980-01-01\n', 'latin1'));
    const r = await limsInProcess(['--data-dir', b, 'import', 'patients', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^lims: latin\.csv: the file is not UTF-8 text: line 2 has the byte 0xE9/);
    expect(r.stderr).toContain('"CSV UTF-8 (Comma delimited) (*.csv)"');
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('names the bad flag and value (exit 2) and a missing file (exit 1)', async () => {
    const file = join(files, 'dry.csv');
    const fmt = await lims(['--data-dir', b, 'import', 'patients', file, '--format', 'xml']);
    expect(fmt.code).toBe(2);
    expect(fmt.stderr).toContain("option '--format <format>' argument 'xml' is invalid");
    const entity = await limsInProcess(['--data-dir', b, 'import', 'patient', file]);
    expect(entity.code).toBe(2);
    expect(entity.stderr).toMatch(
      /^lims: unknown entity 'patient' \(did you mean patients\?\); one of users, doctors, tests, profiles, packages, payers, payer_prices, patients, bills, samples, results, suppliers, inventory, equipment, calibrations, maintenance\n$/,
    );
    const upd = await limsInProcess(['--data-dir', b, 'import', 'bills', file, '--update']);
    expect(upd.code).toBe(2);
    expect(upd.stderr).toMatch(/^lims: --update: bills cannot be updated by an import/);
    const missing = await lims(['--data-dir', b, 'import', 'patients', join(files, 'nope.csv')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^lims: no such file: .*nope\.csv\n$/);
    const mapping = join(files, 'map.json');
    writeFileSync(mapping, JSON.stringify({ DOB: 'birthday' }));
    const badMap = await limsInProcess(['--data-dir', b, 'import', 'patients', file, '--mapping', mapping]);
    expect(badMap.code).toBe(2);
    expect(badMap.stderr).toMatch(/--mapping .*map\.json: "DOB" maps to birthday, which is not a column of patients/);
  });
});

describe('a test menu of 300 tests with profiles naming them by code', () => {
  it('imports the tests (CSV) and profiles (Excel); a wrong code in a profile fails the file by row and column', async () => {
    const menu = await menuFiles('CM');
    writeFileSync(join(files, 'menu.csv'), menu.testsCsv);
    writeFileSync(join(files, 'panels.xlsx'), menu.profilesXlsx);
    writeFileSync(join(files, 'panels-bad.csv'), menu.badProfilesCsv);
    const tests = await limsInProcess(['--data-dir', b, 'import', 'tests', join(files, 'menu.csv')]);
    expect(tests.code, tests.stderr).toBe(0);
    expect(tests.stdout).toMatch(/^imported 300 tests from menu\.csv \(300 new, 0 updated; job \d+\)\n$/);
    const bad = await limsInProcess(['--data-dir', b, 'import', 'profiles', join(files, 'panels-bad.csv')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split('\n')[0]).toBe(
      `  row 7, column test_codes: no test with code ${menu.badCode} (import the tests first)`,
    );
    const profiles = await limsInProcess(['--data-dir', b, 'import', 'profiles', join(files, 'panels.xlsx')]);
    expect(profiles.code, profiles.stderr).toBe(0);
    const out = await limsInProcess(['--data-dir', b, 'export', 'profiles', '--format', 'json']);
    const exported = (JSON.parse(out.stdout) as { code: string; test_codes: string[] }[]).filter((p) =>
      p.code.startsWith('CMP'),
    );
    expect(new Map(exported.map((p) => [p.code, p.test_codes]))).toEqual(menu.members);
    const all = await limsInProcess(['--data-dir', b, 'export', 'tests', '--format', 'json']);
    expect(
      (JSON.parse(all.stdout) as { code: string }[])
        .map((t) => t.code)
        .filter((c) => /^CM\d{3}$/.test(c))
        .sort(),
    ).toEqual(menu.testCodes);
  }, 120_000);
});

describe('lims export', () => {
  it('writes to stdout when piped: the data only, no other line', async () => {
    const r = await lims(['--data-dir', a, 'export', 'tests', '--format', 'json', '--where', 'status=active']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const tests = JSON.parse(r.stdout) as { code: string }[];
    expect(tests.length).toBeGreaterThan(50);
    expect(tests.map((t) => t.code)).toContain('HB');
  });

  it('chooses records by date and field; bad filters name the flag', async () => {
    const none = await limsInProcess([
      '--data-dir',
      a,
      'export',
      'bills',
      '--from',
      '2001-01-01',
      '--to',
      '2001-12-31',
    ]);
    expect(none.stdout.trim().split('\r\n')).toHaveLength(1);
    const bad = await limsInProcess(['--data-dir', a, 'export', 'bills', '--from', '2026-02-30']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('lims: --from: the date is not a real calendar date (got "2026-02-30")\n');
    const field = await limsInProcess(['--data-dir', a, 'export', 'patients', '--where', 'colour=blue']);
    expect(field.code).toBe(2);
    expect(field.stderr).toMatch(/patients cannot be filtered on colour; filter on search, gender, membership_type/);
    const female = await limsInProcess(['--data-dir', a, 'export', 'patients', '--where', 'gender=female']);
    expect(female.stdout.trim().split('\r\n')).toHaveLength(1);
    const dated = await limsInProcess(['--data-dir', a, 'export', 'tests', '--from', '2020-01-01']);
    expect(dated.code).toBe(2);
    expect(dated.stderr).toMatch(/tests have no date to choose them by/);
  });

  it('replaces the --out file only once the export is complete', async () => {
    const out = join(files, 'replace.csv');
    writeFileSync(out, 'old');
    const r = await limsInProcess(['--data-dir', a, 'export', 'doctors', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^\uFEFFemail,title,first_name/);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});
