import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, tempDir, type TestLab } from '../helpers.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { verifyChain } from '../../src/core/audit/audit.js';
import {
  entityNamed,
  runExport,
  runImport,
  type ImportResult,
  type TransferFormat,
} from '../../src/core/transfer/service.js';
import { safeFileName } from '../../src/core/transfer/source.js';
import { describeRowError } from '../../src/core/transfer/errors.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createUser } from '../../src/core/users/service.js';
import { insertOtherLab } from './support.js';
import { localDate } from '../../src/shared/time.js';

/**
 * The import and export engine, in process on the lab's database (both engines): what rows
 * are refused and how the refusal reads, that nothing is stored unless every row is good, the
 * natural keys and references, the hostile files. The CLI's own behaviour (exit codes, stdout and
 * stderr, the round trip of every entity through the built binary) is test/cli/import-export.test.ts.
 */

let lab: TestLab;
let actor: Actor;
let dir: string;

beforeAll(async () => {
  lab = await makeLab();
  actor = systemActor(lab.organizationId);
  dir = tempDir('lims-import-');
});
afterAll(() => lab.close());

let fileCount = 0;

/** Writes the file and imports it as the CLI does. */
async function importFile(
  entity: string,
  name: string,
  content: string | Buffer,
  opts: { dryRun?: boolean; update?: boolean; format?: TransferFormat; mapping?: Record<string, string | null> } = {},
): Promise<ImportResult> {
  fileCount += 1;
  const sub = join(dir, String(fileCount));
  await import('node:fs').then((fs) => fs.mkdirSync(sub));
  const path = join(sub, name);
  writeFileSync(path, content);
  return runImport(lab.database.db, actor, {
    entity: entityNamed(entity)!,
    path,
    format: opts.format,
    mapping: opts.mapping,
    dryRun: opts.dryRun ?? false,
    update: opts.update ?? false,
    origin: 'cli',
    reportPath: (id) => join(sub, `report-${id}.csv`),
  });
}

async function exportBytes(entity: string, format: TransferFormat = 'csv', where: Record<string, unknown> = {}) {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await runExport(lab.database.db, actor, {
    entity: entityNamed(entity)!,
    format,
    query: { where },
    out,
    fileName: null,
    origin: 'cli',
  });
  return Buffer.concat(chunks);
}

async function count(table: 'patients' | 'tests' | 'test_profiles' | 'bills' | 'users'): Promise<number> {
  const r = await lab.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', lab.organizationId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const messages = (r: ImportResult) => r.first_errors.map((e) => describeRowError(e, r.unit));

describe('patients', () => {
  it('imports a spreadsheet CSV (BOM, semicolons, quotes, any script) and exports the UI download bytes', async () => {
    const csv =
      '\uFEFFfirst_name;last_name;date_of_birth;gender;phone;address;allergies\r\n' +
      'Ramesh;Kumar;1980-05-03;Male;+91 98450 12345;"Flat 2; MG Road\nBengaluru";\r\n' +
      'मीरा;शर्मा;05/03/1990;female;;;"=HYPERLINK(""http://x"",""y"")"\r\n' +
      'Anbu;;1975-12-31;;;;\r\n';
    const r = await importFile('patients', 'register.csv', csv);
    expect(r.status, messages(r).join('\n')).toBe('completed');
    expect(r).toMatchObject({ rows: 3, inserted: 3, updated: 0, errors: 0 });
    const ui = await lab.admin.get('/api/patients/export');
    expect(ui.statusCode).toBe(200);
    const cli = await exportBytes('patients');
    expect(cli.toString('utf8')).toBe(ui.body);
    const rows = parse(ui.body, { columns: true, bom: true }) as Record<string, string>[];
    const meera = rows.find((p) => p.first_name === 'मीरा')!;
    expect(meera.date_of_birth).toBe('1990-03-05');
    // Stored as typed, written formula-safe.
    expect(meera.allergies).toBe(`'=HYPERLINK("http://x","y")`);
    expect(rows.find((p) => p.first_name === 'Ramesh')!.address).toBe('Flat 2; MG Road\nBengaluru');
    expect(rows.find((p) => p.first_name === 'Ramesh')!.phone).toBe('9845012345');
    // The search index holds them (SQLite's triggers, PostgreSQL's words and prefix counts).
    for (const q of ['Rame', 'मीरा', '98450 12345']) {
      const found = (await lab.admin.get(`/api/patients?search=${encodeURIComponent(q)}`)).json();
      expect(found.total, q).toBe(1);
    }
  });

  it('refuses the whole file for one bad row, naming row (header = row 1) and column, and stores nothing', async () => {
    const before = await count('patients');
    const good = Array.from({ length: 1202 }, (_, i) => `Good${'a'.repeat(1 + (i % 5))},Row,1990-01-01`).join('\n');
    const csv = `first_name,last_name,date_of_birth\n${good}\nBad,Date,31/02/1988\nNo,Birth,\n`;
    const r = await importFile('patients', 'bad.csv', csv);
    expect(r.status).toBe('failed');
    expect(r.inserted).toBe(0);
    expect(messages(r)).toEqual([
      "row 1,204, column date_of_birth: 31/02/1988 is not a date (write YYYY-MM-DD, or DD/MM/YYYY as the lab's dates are set)",
      'row 1,205, column date_of_birth: Date of birth or age is required',
    ]);
    expect(await count('patients')).toBe(before);
    // Every error is in the report file too.
    const report = parse(readFileSync(r.error_file!, 'utf8'), { columns: true, bom: true }) as Record<string, string>[];
    // One line per kind of problem first (row left empty), then every row.
    expect(report.filter((e) => e.row === '').map((e) => e.column)).toEqual(['date_of_birth', 'date_of_birth']);
    const rows = report.filter((e) => e.row !== '');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ row: '1204', column: 'date_of_birth' });
    // The failed import is a job and an audit entry, nothing else.
    const job = await lab.database.db
      .selectFrom('data_jobs')
      .selectAll()
      .where('id', '=', r.job_id)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({
      status: 'failed',
      type: 'import',
      entity: 'patients',
      errors: 2,
      records: 1204,
      file_name: 'bad.csv',
    });
    expect(JSON.parse(job.error_report!)).toHaveLength(2);
  });

  it('names each problem: a duplicate in the file, a code in the wrong shape, a wrong value', async () => {
    const day = localDate('Asia/Kolkata').replace(/-/g, '');
    const csv = [
      'patient_id,first_name,last_name,date_of_birth,gender',
      `PAT${day}9001,Asha,Rao,1990-01-01,Female`,
      `pat${day}9001,Usha,Rao,1991-01-01,Female`,
      // A lims code mistyped (an old system's own number, such as P-00123, is kept as the legacy ID).
      `PAT${day}X1,Old,Code,1980-01-01,Male`,
      'P-00123,Legacy,Number,1980-01-01,m',
      ',Wrong,Gender,1980-01-01,Q',
    ].join('\n');
    const r = await importFile('patients', 'dups.csv', csv);
    expect(r.status).toBe('failed');
    const m = messages(r);
    expect(m[0]).toBe(
      `row 3, column patient_id: pat${day}9001 is also on row 2; each patient may appear once in a file`,
    );
    expect(m[1]).toMatch(
      new RegExp(`^row 4, column patient_id: PAT${day}X1: a patient code is PAT, the registration date`),
    );
    expect(m[2]).toBe('row 6, column gender: Gender must be Male, Female or Other (got "Q")');
    expect(m).toHaveLength(3);
  });

  it('keeps a given code, moves the day counter past it, and refuses a code already stored', async () => {
    const day = localDate('Asia/Kolkata').replace(/-/g, '');
    const r = await importFile(
      'patients',
      'codes.csv',
      `patient_id,first_name,date_of_birth\nPAT${day}7005,Kept,2000-01-01\n`,
    );
    expect(r.status, messages(r).join()).toBe('completed');
    const next = await createPatient(lab.database.db, actor, {
      first_name: 'After',
      last_name: '',
      date_of_birth: '2000-01-01',
    });
    expect(next.patient_id).toBe(`PAT${day}7006`);
    const again = await importFile(
      'patients',
      'again.csv',
      `patient_id,first_name,date_of_birth\nPAT${day}7005,Kept,2000-01-01\n`,
    );
    expect(messages(again)).toEqual([
      `row 2, column patient_id: PAT${day}7005: a patient with this patient_id is already stored (import with --update to change it)`,
    ]);
  });

  it('--dry-run checks every row and stores nothing; --update changes only the columns the file has', async () => {
    const day = localDate('Asia/Kolkata').replace(/-/g, '');
    const code = `PAT${day}7101`;
    await importFile(
      'patients',
      'base.csv',
      `patient_id,first_name,last_name,date_of_birth,city,allergies\n${code},Lata,Iyer,1970-02-02,Pune,Dust\n`,
    );
    const before = await count('patients');
    const dry = await importFile('patients', 'dry.csv', `first_name,date_of_birth\nDry,1990-01-01\nRun,1990-01-01\n`, {
      dryRun: true,
    });
    expect(dry).toMatchObject({ status: 'completed', dry_run: true, inserted: 2, rows: 2 });
    expect(await count('patients')).toBe(before);

    const upd = await importFile('patients', 'upd.csv', `patient_id,city,allergies\n${code},Chennai,\n`, {
      update: true,
    });
    expect(upd, messages(upd).join()).toMatchObject({ status: 'completed', updated: 1, inserted: 0 });
    const p = await lab.database.db
      .selectFrom('patients')
      .selectAll()
      .where('patient_code', '=', code)
      .executeTakeFirstOrThrow();
    // City changed, the empty allergies cell cleared the field, the name (not in the file) kept.
    expect(p).toMatchObject({ city: 'Chennai', allergies: null, first_name: 'Lata', last_name: 'Iyer' });
  });

  it('reads a workbook: formulas as their saved values, date cells, numbers in text columns', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Patients');
    ws.addRow(['first_name', 'last_name', 'date_of_birth', 'phone', 'pincode', 'allergies']);
    ws.addRow([
      { formula: '"Ra"&"vi"', result: 'Ravi' },
      'Menon',
      new Date(Date.UTC(1985, 6, 14)),
      9845012399,
      560001,
      { formula: 'HYPERLINK("http://evil","x")', result: 'x' },
    ]);
    ws.getCell('C2').numFmt = 'dd/mm/yyyy';
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await importFile('patients', 'sheet.xlsx', file);
    expect(r.status, messages(r).join()).toBe('completed');
    const p = await lab.database.db
      .selectFrom('patients')
      .selectAll()
      .where('first_name', '=', 'Ravi')
      .executeTakeFirstOrThrow();
    expect(p).toMatchObject({
      last_name: 'Menon',
      date_of_birth: '1985-07-14',
      phone: '9845012399',
      pincode: '560001',
      allergies: 'x',
    });
  });

  it('maps the headers of another system, and refuses a column it does not know', async () => {
    const csv = 'Patient Name,Surname,DOB,Mobile No,Ward\nKala,Devi,1960-06-06,9845000001,B2\n';
    const refused = await importFile('patients', 'other.csv', csv);
    expect(refused.message).toMatch(
      /^the file has columns that patients do not have: Patient Name, Surname, DOB, Mobile No, Ward\./,
    );
    const r = await importFile('patients', 'other.csv', csv, {
      mapping: {
        'Patient Name': 'first_name',
        Surname: 'last_name',
        DOB: 'date_of_birth',
        'Mobile No': 'phone',
        Ward: null,
      },
    });
    expect(r.status, messages(r).join()).toBe('completed');
    expect(r.ignored_columns).toEqual(['Ward']);
  });

  it('reads JSON records shaped like the API, leaving out fields it does not import', async () => {
    const json = JSON.stringify([
      {
        id: 999,
        first_name: 'Jaya',
        last_name: 'N',
        date_of_birth: '1999-09-09',
        age: 25,
        status: 'active',
        updated_at: 'x',
      },
      'not a record',
    ]);
    const r = await importFile('patients', 'api.json', json);
    expect(r.unit).toBe('record');
    expect(messages(r)).toEqual(['record 2: is not a record (an object of fields)']);
    const ok = await importFile(
      'patients',
      'api.json',
      JSON.stringify([{ id: 1, first_name: 'Jaya', date_of_birth: '1999-09-09', updated_at: 'x' }]),
    );
    expect(ok.status).toBe('completed');
    expect(ok.ignored_columns.sort()).toEqual(['id', 'updated_at']);
  });

  it('writes one import entry with the counts and one entry per patient; the chain still verifies', async () => {
    const r = await importFile(
      'patients',
      'audited.csv',
      'first_name,date_of_birth\nAud,1990-01-01\nIted,1990-01-01\n',
    );
    const entries = await lab.database.db
      .selectFrom('audit_log')
      .select(['action', 'entity', 'new_values'])
      .where('organization_id', '=', lab.organizationId)
      .orderBy('id', 'desc')
      .limit(3)
      .execute();
    expect(entries.map((e) => `${e.action} ${e.entity}`)).toEqual([
      'import patient',
      'create patient',
      'create patient',
    ]);
    expect(JSON.parse(entries[0]!.new_values!)).toMatchObject({
      job: r.job_id,
      rows: 2,
      inserted: 2,
      file: 'audited.csv',
    });
    expect((await verifyChain(lab.database.db)).ok).toBe(true);
  });
});

describe('the test menu', () => {
  it('imports a 300-test menu and profiles and packages that name their tests by code, in one go each', async () => {
    const tests = ['code,name,category,price,unit,normal_range,sample_type,result_type,formula,choices'];
    for (let i = 1; i <= 300; i++)
      tests.push(`M${String(i).padStart(3, '0')},Menu test ${i},Biochemistry,${100 + i},mg/dL,10-${20 + i},Blood,,,`);
    // A calculated test before the tests its formula names, and a choice test.
    tests.splice(1, 0, 'MCALC,Menu ratio,Biochemistry,0,,,Blood,calculated,M001 / M002,');
    tests.push('MCHOICE,Menu antigen,Serology,250,,,Blood,choice,,"Positive, Negative"');
    const dry = await importFile('tests', 'menu.csv', tests.join('\n'), { dryRun: true });
    expect(dry).toMatchObject({ status: 'completed', inserted: 302, updated: 0 });
    const t = await importFile('tests', 'menu.csv', tests.join('\n'));
    expect(t.status, messages(t).join('\n')).toBe('completed');
    expect(t.inserted).toBe(302);
    const profiles = ['code,name,price,test_codes'];
    for (let p = 0; p < 30; p++)
      profiles.push(
        `MP${p},Menu profile ${p},${500 + p},"${Array.from({ length: 10 }, (_, k) => `M${String(p * 10 + k + 1).padStart(3, '0')}`).join(', ')}"`,
      );
    const pr = await importFile('profiles', 'profiles.csv', profiles.join('\n'));
    expect(pr.status, messages(pr).join('\n')).toBe('completed');
    expect(pr.inserted).toBe(30);
    const pk = await importFile(
      'packages',
      'packages.csv',
      'code,name,price,test_codes,profile_codes\nMPK,Menu check-up,1999,MCHOICE,"MP0, MP1"\n',
    );
    expect(pk.status, messages(pk).join('\n')).toBe('completed');
    const exported = parse((await exportBytes('profiles')).toString('utf8'), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    expect(exported.find((p) => p.code === 'MP3')!.test_codes).toBe(
      'M031, M032, M033, M034, M035, M036, M037, M038, M039, M040',
    );
  });

  it('names a profile test code nobody has, and a formula naming a test that is nowhere', async () => {
    const pr = await importFile('profiles', 'p.csv', 'code,name,price,test_codes\nMPX,X,10,"M001, NOPE1, NOPE2"\n');
    expect(messages(pr)).toEqual([
      'row 2, column test_codes: no test with codes NOPE1, NOPE2 (import the tests first)',
    ]);
    const t = await importFile(
      'tests',
      't.csv',
      'code,name,price,result_type,formula\nMBAD,Bad ratio,0,calculated,M001 / NOPE3\n',
    );
    expect(messages(t)).toEqual([
      'row 2, column formula: the formula uses NOPE3, which is neither in the catalogue nor in the file',
    ]);
  });

  it('turns a rule the catalogue service enforces into a row error, and stores nothing', async () => {
    const before = await count('tests');
    const t = await importFile(
      'tests',
      't.csv',
      'code,name,price,result_type,choices\nMOK,Fine,10,,\nMONE,One choice,10,choice,Positive\n',
    );
    expect(messages(t)).toEqual([
      'row 3, column choices: A choice test needs at least two choices (e.g. Positive, Negative)',
    ]);
    expect(await count('tests')).toBe(before);
  });
});

describe('users and doctors', () => {
  it('imports accounts without passwords; they cannot sign in until one is set', async () => {
    const r = await importFile(
      'users',
      'staff.csv',
      'email,first_name,last_name,role,phone\nnew.tech@lab.test,Nisha,Pai,lab_technician,\n',
    );
    expect(r.status, messages(r).join()).toBe('completed');
    const res = await lab.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new.tech@lab.test', password: '' },
    });
    expect(res.statusCode).not.toBe(200);
    const header = (await exportBytes('users')).toString('utf8').split('\r\n')[0]!;
    expect(header).toBe(
      '\uFEFFemail,title,first_name,last_name,role,department,phone,specialization,consultation_fee,is_active,last_login',
    );
  });

  it('refuses a second superadmin and a doctor stand-in email', async () => {
    const r = await importFile(
      'users',
      'boss.csv',
      'email,first_name,last_name,role\nboss@lab.test,Big,Boss,superadmin\ndoctor-7@no-email.invalid,No,Mail,receptionist\nlab.doc@lab.test,Lab,Doc,doctor\n',
    );
    expect(messages(r)).toEqual([
      'row 2, column role: a lab has one superadmin, made by lims setup; give another role',
      'row 3, column email: this address stands for a doctor without an email; export doctors instead (got "doctor-7@no-email.invalid")',
      'row 4, column role: doctors are imported with lims import doctors (with their qualification and registration) (got "doctor")',
    ]);
  });

  it('takes an email another lab of the server uses (emails are unique within a lab), and leaves that account alone', async () => {
    const otherLab = await insertOtherLab(lab.database.db, 'Import Neighbour Lab');
    const theirs = await createUser(lab.database.db, systemActor(otherLab), {
      first_name: 'Same',
      last_name: 'Address',
      email: 'shared.address@lab.test',
      role: 'receptionist',
      password: 'Neighbour-2024',
    });
    const r = await importFile(
      'users',
      'shared.csv',
      'email,first_name,last_name,role\nshared.address@lab.test,Our,Colleague,lab_technician\n',
    );
    expect(r.status, messages(r).join()).toBe('completed');
    expect(r.inserted).toBe(1);
    const both = await lab.database.db
      .selectFrom('users')
      .select(['organization_id', 'first_name', 'role'])
      .where('email', '=', 'shared.address@lab.test')
      .orderBy('organization_id')
      .execute();
    expect(both).toEqual([
      { organization_id: lab.organizationId, first_name: 'Our', role: 'lab_technician' },
      { organization_id: otherLab, first_name: 'Same', role: 'receptionist' },
    ]);
    expect(theirs.first_name).toBe('Same');
  });

  it('imports doctors with and without an email', async () => {
    const r = await importFile(
      'doctors',
      'doctors.csv',
      'email,first_name,last_name,specialization,consultation_fee,registration_number,status\n' +
        'dr.rao@clinic.test,Vikram,Rao,Cardiology,500,KMC-1234,active\n,Sunil,Shetty,,0,,inactive\n',
    );
    expect(r.status, messages(r).join()).toBe('completed');
    const rows = parse((await exportBytes('doctors')).toString('utf8'), { columns: true, bom: true }) as Record<
      string,
      string
    >[];
    expect(rows.find((d) => d.last_name === 'Shetty')).toMatchObject({
      email: '',
      status: 'inactive',
      can_sign_in: 'false',
    });
    expect(rows.find((d) => d.last_name === 'Rao')).toMatchObject({
      consultation_fee: '500',
      registration_number: 'KMC-1234',
    });
  });
});

describe('bills', () => {
  const header =
    'bill_number,created_at,patient_patient_id,doctor_email,visit_type,consultation_fee,discount_percentage,tax_percentage,final_amount,payment_method,items,payments';
  let patientCode: string;
  beforeAll(async () => {
    const p = await createPatient(lab.database.db, actor, {
      first_name: 'Billy',
      last_name: 'Das',
      date_of_birth: '1980-01-01',
    });
    patientCode = p.patient_id;
  });

  it('keeps a bill of an earlier system as it was, with its number, lines and payments', async () => {
    const items = JSON.stringify([{ item_type: 'test', code: 'M001', qty: 2, price: 150, discount_percent: 10 }]);
    const pays = JSON.stringify([
      { amount: 100, method: 'upi', reference: 'UPI-1', created_at: '2025-01-05T10:05:00Z' },
    ]);
    const csv = `${header}\nOPB202501051530,2025-01-05 15:30,${patientCode},dr.rao@clinic.test,doctor_visit,500,5,0,731.5,cash,"${items.replace(/"/g, '""')}","${pays.replace(/"/g, '""')}"\n`;
    const r = await importFile('bills', 'bills.csv', csv);
    expect(r.status, messages(r).join('\n')).toBe('completed');
    const bill = (await lab.admin.get('/api/bills?search=OPB202501051530')).json().bills[0];
    // 2 × 150 less 10% = 270; + fee 500 = 770; less 5% = 731.50.
    expect(bill).toMatchObject({
      bill_number: 'OPB202501051530',
      subtotal: 270,
      final_amount: 731.5,
      paid_amount: 100,
      payment_status: 'partial',
      bill_date: '2025-01-05',
    });
  });

  it('refuses amounts that do not add up, payments above the bill, unknown references, and --update', async () => {
    const items = JSON.stringify([{ item_type: 'test', code: 'M001', qty: 1, price: 100 }]).replace(/"/g, '""');
    const big = JSON.stringify([{ amount: 500, method: 'cash' }]).replace(/"/g, '""');
    const csv = [
      header,
      `OPB202501061000,2025-01-06 10:00,${patientCode},,lab_only,0,0,0,99,cash,"${items}",`,
      `OPB202501061001,2025-01-06 10:01,${patientCode},,lab_only,0,0,0,,cash,"${items}","${big}"`,
      `OPB202501061002,2025-01-06 10:02,PAT000000000000,,,0,0,0,,cash,"${items.replace('M001', 'ZZZ')}",`,
    ].join('\n');
    const r = await importFile('bills', 'bad-bills.csv', csv);
    expect(messages(r)).toEqual([
      'row 2, column final_amount: ₹99.00 does not add up: the lines and percentages give ₹100.00',
      'row 3, column payments: the payments (₹500.00) are more than the bill (₹100.00)',
      'row 4, column patient_patient_id: no patient with code PAT000000000000 (import the patients first)',
      'row 4, column items: line 1: no test with code ZZZ in the catalogue',
    ]);
    await expect(importFile('bills', 'u.csv', csv, { update: true })).rejects.toThrow(
      /bills cannot be updated by an import/,
    );
  });
});

describe('samples', () => {
  it('a completed sample without its report time counts as reported when it was completed', async () => {
    const p = await createPatient(lab.database.db, actor, {
      first_name: 'Sam',
      last_name: 'Pillai',
      date_of_birth: '1975-03-03',
    });
    const csv = [
      'sample_id,patient_number,sample_type,status,collection_date,completed_at,reported_at',
      `SMP202502010001,${p.patient_id},Blood,completed,2025-02-01 09:00,2025-02-01 15:00,`,
      `SMP202502020002,${p.patient_id},Blood,completed,2025-02-02 09:00,2025-02-02 15:00,2025-02-03 10:00`,
      `SMP202502040003,${p.patient_id},Blood,completed,2025-02-04 09:00,,`,
      `SMP202502050004,${p.patient_id},Blood,collected,2025-02-05 09:00,,`,
    ].join('\n');
    const r = await importFile('samples', 'samples.csv', `${csv}\n`);
    expect(r.status, messages(r).join('\n')).toBe('completed');
    const rows = await lab.database.db
      .selectFrom('samples')
      .select(['sample_code', 'completed_at', 'reported_at'])
      .where('patient_id', '=', p.id)
      .orderBy('sample_code')
      .execute();
    const at = (x: string | null) => (x ? new Date(x).toISOString() : null);
    expect(rows.map((x) => [x.sample_code, at(x.reported_at) === at(x.completed_at), x.reported_at === null])).toEqual([
      ['SMP202502010001', true, false],
      ['SMP202502020002', false, false],
      ['SMP202502040003', true, false],
      ['SMP202502050004', true, true],
    ]);
  });
});

describe('exports', () => {
  it('writes the bills of a date range to a workbook whose amounts are numbers that sum', async () => {
    const xlsx = await exportBytes('bills', 'xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const col = header.indexOf('final_amount') + 1;
    const amounts: number[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) amounts.push(row.getCell(col).value as number);
    });
    expect(amounts.every((a) => typeof a === 'number')).toBe(true);
    const { summary } = (await lab.admin.get('/api/bills/summary')).json();
    expect(amounts.length).toBe(summary.total_bills);
    expect(amounts.reduce((x, y) => x + y, 0)).toBeCloseTo(summary.total_amount, 2);
    // A day with no bills gives the header alone.
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await runExport(lab.database.db, actor, {
      entity: entityNamed('bills')!,
      format: 'csv',
      query: { from: '2001-01-01', to: '2001-01-31', where: {} },
      out,
      fileName: null,
      origin: 'cli',
    });
    expect(Buffer.concat(chunks).toString('utf8').split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('writes text that looks like a formula as text in a workbook, and with an apostrophe in CSV', async () => {
    const xlsx = await exportBytes('patients', 'xlsx', { search: 'मीरा' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = sheet.getRow(2).getCell(header.indexOf('allergies') + 1);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe('=HYPERLINK("http://x","y")');
  });
});

describe('hostile files', () => {
  it('refuses Windows-1252 text, saying how to save as UTF-8', async () => {
    const r = await importFile(
      'patients',
      'excel.csv',
      Buffer.from('first_name,date_of_birth\nJos\xe9,1980-01-01\n', 'latin1'),
    );
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/not UTF-8 text: line 2 has the byte 0xE9 \(Windows-1252 reads it as "é"\)/);
    expect(r.message).toContain('CSV UTF-8 (Comma delimited)');
  });

  it('refuses 10,000 columns, a 50 MB line, and an unclosed quote', async () => {
    const wide = await importFile(
      'patients',
      'wide.csv',
      `${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n`,
    );
    expect(wide.message).toMatch(/^the file has 10,000 columns; at most 1,000 are read/);
    const long = await importFile(
      'patients',
      'long.csv',
      Buffer.concat([Buffer.from('first_name,last_name\n'), Buffer.alloc(50 * 1024 * 1024, 'a'), Buffer.from('\n')]),
    );
    expect(long.message).toMatch(/^line 2 is longer than 10,48,576 characters/);
    const quote = await importFile('patients', 'quote.csv', 'first_name,last_name\n"Open,quote\n');
    expect(quote.message).toMatch(/a quoted value is never closed/);
  });

  it('refuses JSON nested 10,000 deep at once, with the line', async () => {
    const r = await importFile('patients', 'deep.json', `[\n${'['.repeat(10_000)}${']'.repeat(10_000)}]`);
    expect(r.message).toBe(
      'line 2: the JSON is nested more than 5 levels deep; an import is an array of records whose fields are text, numbers, lists or lists of objects; nothing was imported',
    );
  });

  it('refuses zip bombs dressed as workbooks, honest or lying about their size', async () => {
    const huge = Buffer.alloc(64 * 1024 * 1024, 0x20);
    const honest = zipOf('xl/worksheets/sheet1.xml', huge, huge.length);
    const r1 = await importFile('patients', 'bomb.xlsx', honest);
    expect(r1.message).toMatch(
      /refused as a possible zip bomb: xl\/worksheets\/sheet1.xml unpacks to \d+ times its size/,
    );
    const lying = zipOf('xl/worksheets/sheet1.xml', huge, 1000);
    const r2 = await importFile('patients', 'liar.xlsx', lying);
    expect(r2.message).toMatch(/refused as a possible zip bomb/);
    const notZip = await importFile('patients', 'fake.xlsx', 'first_name\nx\n');
    expect(notZip.message).toMatch(/^the file is not a readable .xlsx workbook/);
  });

  it('takes only the name of a file given with a path', async () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\lab\\patients.csv')).toBe('patients.csv');
    expect(safeFileName('../..')).toBe('file');
    expect(safeFileName('a/b\u202Ec.csv')).toBe('bc.csv');
    const r = await importFile('patients', 'plain.csv', 'first_name,date_of_birth\nPath,1990-01-01\n');
    expect(r.file_name).toBe('plain.csv');
    expect(existsSync(r.error_file ?? '/nonexistent')).toBe(false);
  });
});

/** A one-entry zip (deflate) whose directory says `declared` bytes unpacked. */
function zipOf(name: string, data: Buffer, declared: number): Buffer {
  const packed = deflateRawSync(data, { level: 9 });
  const crc = crc32(data);
  const nameBuf = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(0, 6);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(nameBuf.length, 28);
  central.writeUInt32LE(0, 42);
  const cdOffset = 30 + nameBuf.length + packed.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBuf.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, nameBuf, packed, central, nameBuf, end]);
}
