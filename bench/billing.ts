import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { applyPragmas, openDatabase } from '../src/core/db/connection.js';
import { setupLab } from '../src/core/setup/service.js';
import { systemActor } from '../src/core/context.js';
import { createPatient } from '../src/core/patients/service.js';
import { createTest } from '../src/core/catalogue/tests.js';
import { createBill } from '../src/core/billing/service.js';
import { billPdfById } from '../src/core/billing/print.js';
import type { CatalogueTest } from '../src/shared/schemas/catalogue.js';

/**
 * Bill creation and bill PDFs: lims creates BILLS bills one after another through its
 * service (catalogue look-ups, server-side math, bill number, lines, audit row, each in its own
 * transaction), against the bare rate of inserting the same rows with raw prepared statements, one
 * transaction per bill, on the same pragmas. Then the time to render one bill's PDF.
 */
export interface BillingResult {
  bills: number;
  limsSeconds: number;
  bareSeconds: number;
  pdf: { runs: number; p50: number; p95: number; max: number; bytes: number };
}

const BILLS = 1000;
const PDF_RUNS = 60;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

export async function measureBilling(dir: string): Promise<BillingResult> {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `billing-${process.pid}.db`);
  const bareFile = join(dir, `billing-bare-${process.pid}.db`);
  for (const f of [file, bareFile]) for (const ext of ['', '-wal', '-shm']) rmSync(f + ext, { force: true });
  const database = openDatabase(file);
  try {
    const { organizationId } = await setupLab(database.db, {
      labName: 'Bench Lab',
      adminName: 'Bench Admin',
      adminEmail: 'bench.billing@lab.test',
      adminPassword: 'bench-password-2024',
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      dateFormat: 'DD/MM/YYYY',
      importSampleTests: false,
      importSampleProfiles: false,
      importSamplePackages: false,
    });
    const actor = systemActor(organizationId, 'bench');
    const tests: CatalogueTest[] = [];
    for (const [code, price] of [
      ['HB', 150],
      ['FBS', 100],
      ['TSH', 350],
    ] as const) {
      tests.push(await createTest(database.db, actor, { name: `Test ${code}`, code, price, status: 'active' }));
    }
    const patient = await createPatient(database.db, actor, {
      first_name: 'Bench',
      last_name: 'Patient',
      date_of_birth: '1980-01-01',
      gender: 'Male',
    });
    const body = {
      patient_id: patient.id,
      items: tests.map((t) => ({
        item_type: 'test' as const,
        item_id: t.id,
        qty: 1,
        discount_percent: 5,
      })),
      discount_percentage: 10,
      tax_percentage: 0 as const,
      payment_method: 'cash' as const,
    };
    await createBill(database.db, actor, body); // warm-up
    let t0 = performance.now();
    let lastId = 0;
    for (let i = 0; i < BILLS; i++) lastId = (await createBill(database.db, actor, body)).id;
    const limsSeconds = (performance.now() - t0) / 1000;

    // The bare rate: the same rows with raw prepared statements, one transaction per bill.
    const bare = new Database(bareFile);
    applyPragmas(bare);
    bare.exec(`CREATE TABLE bills (id INTEGER PRIMARY KEY, organization_id INTEGER, bill_number TEXT UNIQUE, patient_id INTEGER, final_amount_paise INTEGER, created_at TEXT);
      CREATE TABLE bill_items (id INTEGER PRIMARY KEY, bill_id INTEGER, position INTEGER, test_id INTEGER, name TEXT, qty INTEGER, unit_price_paise INTEGER, total_paise INTEGER);`);
    const insBill = bare.prepare(
      'INSERT INTO bills (organization_id, bill_number, patient_id, final_amount_paise, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    const insItem = bare.prepare(
      'INSERT INTO bill_items (bill_id, position, test_id, name, qty, unit_price_paise, total_paise) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const one = bare.transaction((n: number) => {
      const { lastInsertRowid } = insBill.run(1, `OPB${n}`, 1, 59850, new Date().toISOString());
      tests.forEach((t, p) => insItem.run(lastInsertRowid, p, t.id, t.name, 1, t.price * 100, t.price * 95));
    });
    t0 = performance.now();
    for (let i = 0; i < BILLS; i++) one.immediate(i);
    const bareSeconds = (performance.now() - t0) / 1000;
    bare.close();

    await billPdfById(database.db, organizationId, lastId); // warm-up: fonts load once
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < PDF_RUNS; i++) {
      const s = performance.now();
      bytes = (await billPdfById(database.db, organizationId, lastId)).pdf.length;
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    return {
      bills: BILLS,
      limsSeconds,
      bareSeconds,
      pdf: {
        runs: PDF_RUNS,
        p50: quantile(times, 0.5),
        p95: quantile(times, 0.95),
        max: times[times.length - 1] ?? Number.NaN,
        bytes,
      },
    };
  } finally {
    await database.close();
    for (const f of [file, bareFile]) for (const ext of ['', '-wal', '-shm']) rmSync(f + ext, { force: true });
  }
}
