import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { makeLab, type TestLab } from '../helpers.js';
import { patientArrayPages, patientPages, PATIENT_CSV_COLUMNS } from '../../src/core/patients/export.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
  await lab.admin.post('/api/patients', {
    first_name: 'Meera',
    last_name: "D'Souza-Pillai",
    date_of_birth: '1990-01-01',
    gender: 'Female',
    address: 'Flat 4, Line 1\n"Quoted" Line 2',
  });
  await lab.admin.post('/api/patients', {
    first_name: 'Arun',
    last_name: 'Das',
    date_of_birth: '1970-01-01',
    gender: 'Male',
  });
  // A walk-in: an estimated birth date from an age, no phone.
  await lab.admin.post('/api/patients', { first_name: 'Walk', last_name: 'In', age: 34 });
});
afterAll(() => lab.close());

describe('patients CSV export', () => {
  it('downloads every matching patient as CSV with awkward values quoted', async () => {
    const res = await lab.admin.get('/api/patients/export?gender=Female');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="patients-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.last_name).toBe("D'Souza-Pillai");
    expect(rows[0]!.address).toBe('Flat 4, Line 1\n"Quoted" Line 2');
    expect(rows[0]!.patient_id).toMatch(/^PAT\d{12}$/);
  });

  it('the array walk of exports gives the values of the API patient, column by column', async () => {
    const fromRecords: unknown[][] = [];
    for await (const page of patientPages(lab.database.db, lab.organizationId, {}))
      for (const p of page) fromRecords.push(PATIENT_CSV_COLUMNS.map((c) => p[c]));
    const fromArrays: unknown[][] = [];
    for await (const page of patientArrayPages(lab.database.db, lab.organizationId, {}))
      fromArrays.push(...page.map((r) => r.slice(0, PATIENT_CSV_COLUMNS.length)));
    expect(fromRecords).toHaveLength(3);
    expect(fromArrays).toEqual(fromRecords);
    // The computed columns are there: age, status, and the walk-in's estimated birth date.
    const walkIn = fromArrays.find((r) => r[PATIENT_CSV_COLUMNS.indexOf('first_name')] === 'Walk')!;
    expect(walkIn[PATIENT_CSV_COLUMNS.indexOf('age')]).toBe(34);
    expect(walkIn[PATIENT_CSV_COLUMNS.indexOf('dob_estimated')]).toBe(true);
    expect(walkIn[PATIENT_CSV_COLUMNS.indexOf('status')]).toBe('active');
  });

  it('neutralises spreadsheet formulas but leaves phone numbers alone', async () => {
    await lab.admin.post('/api/patients', {
      first_name: 'Formula',
      last_name: 'Case',
      date_of_birth: '1990-01-01',
      allergies: '=HYPERLINK("x")',
      phone: '+91 90000 11111',
      emergency_phone: '+91 80 4000 1234',
    });
    const res = await lab.admin.get('/api/patients/export?search=formula');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const rows = parse(res.body, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows[0]!.allergies).toBe(`'=HYPERLINK("x")`);
    // The mobile is stored as its 10 digits; a phone that starts with + is not taken for a formula.
    expect(rows[0]!.phone).toBe('9000011111');
    expect(rows[0]!.emergency_phone).toBe('+91 80 4000 1234');
  });

  it('records the export in the audit trail', async () => {
    const audit = await lab.admin.get('/api/audit?action=export');
    expect(audit.json().logs[0].entity).toBe('patient');
  });

  it('is refused to a role without view_patients', async () => {
    const inv = await lab.as('inventory_manager');
    expect((await inv.get('/api/patients/export')).statusCode).toBe(403);
  });
});
