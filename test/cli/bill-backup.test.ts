import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/db/connection.js';
import { primaryOrganization } from '../../src/core/settings/organization.js';
import { systemActor } from '../../src/core/context.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createBill } from '../../src/core/billing/service.js';
import { cleanup, dbFileOf, lims, setUpLab, tempDir } from './helpers.js';

let dir: string;
let billNumber: string;

beforeAll(async () => {
  dir = tempDir();
  await setUpLab(dir, ['--sample-data']);
  const database = openDatabase(dbFileOf(dir));
  const org = (await primaryOrganization(database.db))!;
  const actor = systemActor(org.id);
  const test = await database.db.selectFrom('tests').select('id').where('code', '=', 'HB').executeTakeFirstOrThrow();
  const patient = await createPatient(database.db, actor, {
    first_name: 'Kiran',
    last_name: 'Joshi',
    date_of_birth: '1990-03-04',
    gender: 'Female',
  });
  const bill = await createBill(database.db, actor, {
    patient_id: patient.id,
    items: [{ item_type: 'test', item_id: test.id, qty: 1, gst_percent: 18, discount_percent: 0 }],
    discount_percentage: 0,
    tax_percentage: 0,
    payment_method: 'cash',
  });
  billNumber = bill.bill_number;
  await database.close();
});
afterAll(cleanup);

describe('lims bill print', () => {
  it('writes the bill PDF with the amount in en-IN format', async () => {
    const out = join(dir, 'bill.pdf');
    const r = await lims(['--data-dir', dir, 'bill', 'print', billNumber, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(out);
    expect(readFileSync(out).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', out, '-']).toString();
    expect(text).toContain(billNumber);
    expect(text).toMatch(/₹\d{1,3}(,\d{2,3})*\.\d{2}/);
    expect(text).toContain('Kiran Joshi');
  });

  it('fails with one clear line for an unknown bill number', async () => {
    const r = await lims(['--data-dir', dir, 'bill', 'print', 'OPB000000000000']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('lims: no bill numbered OPB000000000000 in City Diagnostics');
  });
});

describe('lims backup and restore', () => {
  it('makes a checked online backup and restores it, keeping the replaced database', async () => {
    const file = join(tempDir(), 'b.db');
    const b = await lims(['--data-dir', dir, 'backup', '--out', file]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/integrity ok/);
    expect(existsSync(file)).toBe(true);

    const again = await lims(['--data-dir', dir, 'backup', '--out', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');

    const fresh = tempDir();
    const r = await lims(['--data-dir', fresh, 'restore', file]);
    expect(r.code, r.stderr).toBe(0);
    const print = await lims(['--data-dir', fresh, 'bill', 'print', billNumber, '--out', join(fresh, 'x.pdf')]);
    expect(print.code, print.stderr).toBe(0);

    const r2 = await lims(['--data-dir', fresh, 'restore', file]);
    expect(r2.code).toBe(0);
    expect(readdirSync(fresh).some((f) => f.startsWith('lims.db.before-restore-'))).toBe(true);
  });

  it('refuses a file that is not a lims database', async () => {
    const bogus = join(dir, 'serve.txt');
    execFileSync('sh', ['-c', `echo hello > ${bogus}`]);
    const r = await lims(['--data-dir', tempDir(), 'restore', bogus]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/lims: /);
  });
});
