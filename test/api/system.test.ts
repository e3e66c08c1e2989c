import { row, rows } from '../db.js';
import { migrations } from '../../src/core/db/migrations/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import type { Counts } from '../../src/shared/schemas/dashboard.js';
import type { DatabaseDiagnostics } from '../../src/core/db/diagnostics.js';
import type { ChainReport } from '../../src/core/audit/audit.js';
import { createPatient, createUserVia, lastAuditId } from './support.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const countsOf = async (as: TestLab['admin']) => {
  const res = await as.get('/api/dashboard/stats');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ counts: Counts }>().counts;
};

describe('dashboard figures', () => {
  it('are open to every signed-in user, whatever their role', async () => {
    for (const role of ['user', 'inventory_manager', 'collector'] as const) {
      expect((await (await lab.as(role)).get('/api/dashboard/stats')).statusCode).toBe(200);
    }
  });

  it('count real patients, active users and doctors, and say null for modules not built yet', async () => {
    const before = await countsOf(lab.admin);
    await createPatient(lab.admin);
    await createPatient(lab.admin);
    const doc = await createUserVia(lab.admin, { role: 'doctor' });
    await createUserVia(lab.admin, { role: 'technician' });
    const after = await countsOf(lab.admin);
    expect(after.patients).toBe(before.patients + 2);
    expect(after.users).toBe(before.users + 2);
    expect(after.doctors).toBe(before.doctors + 1);
    await lab.admin.delete(`/api/users/${doc.id}`);
    expect((await countsOf(lab.admin)).doctors).toBe(before.doctors);
  });
});

describe('diagnostics for the debug and connection-test screens', () => {
  it('answer server, database and count facts to a system_settings holder', async () => {
    const res = await lab.admin.get('/api/system/diagnostics');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ server: { node: string; demo: boolean }; database: DatabaseDiagnostics; counts: Counts }>();
    expect(body.server).toMatchObject({ node: process.version, demo: false });
    const d = lab.database;
    expect(body.database).toMatchObject(
      d.engine === 'sqlite'
        ? {
            type: 'SQLite',
            file: d.file,
            journal_mode: 'wal',
            synchronous: 'FULL',
            foreign_keys: true,
            quick_check: 'ok',
          }
        : {
            type: 'PostgreSQL',
            change_listener: true,
            quick_check: 'ok',
            schema_version: Math.max(...migrations.map((m) => m.version)),
          },
    );
    expect(JSON.stringify(body.database)).not.toContain('pg-secret');
    expect(body.database.size_bytes).toBeGreaterThan(0);
    expect(body.counts.patients).toBe((await countsOf(lab.admin)).patients);
  });

  it('are refused (403) to roles without system_settings', async () => {
    for (const role of ['lab_manager', 'receptionist', 'doctor'] as const) {
      const who = await lab.as(role);
      expect((await who.get('/api/system/diagnostics')).statusCode, role).toBe(403);
      expect((await who.post('/api/system/checks/audit-chain')).statusCode, role).toBe(403);
      expect((await who.post('/api/system/checks/patient-write')).statusCode, role).toBe(403);
    }
  });

  // The lab admin's own patient-write check: test/api/tenant-suspension.test.ts (run here, its rolled-back
  // audit row would leave a gap in PostgreSQL's ids that the chain test below counts).
  it("the server's diagnostics and audit chain are its superadmin's, not an admin's", async () => {
    const admin = await lab.as('admin');
    expect((await admin.get('/api/system/diagnostics')).statusCode).toBe(403);
    expect((await admin.post('/api/system/checks/audit-chain')).statusCode).toBe(403);
  });

  it('the audit-chain check verifies the trail', async () => {
    await createPatient(lab.admin);
    const res = await lab.admin.post('/api/system/checks/audit-chain');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ audit: ChainReport }>().audit).toMatchObject({
      ok: true,
      firstBrokenId: null,
      checked: await lastAuditId(lab),
    });
  });

  it('the patient-write check succeeds and leaves no patient, no audit row and no used patient number behind', async () => {
    await createPatient(lab.admin);
    const numbersUsed = () =>
      rows(lab.database, "SELECT name, value FROM sequences WHERE name LIKE 'patient:%' ORDER BY name");
    const numbersBefore = await numbersUsed();
    const patientCount = async () =>
      Number((await row<{ n: number }>(lab.database, 'SELECT count(*) AS n FROM patients'))?.n);
    const patientsBefore = await patientCount();
    const auditBefore = await lastAuditId(lab);

    const res = await lab.admin.post('/api/system/checks/patient-write');
    expect(res.statusCode).toBe(200);
    const check = res.json<{ check: { ok: boolean; ms: number; patient_code: string | null; error: string | null } }>()
      .check;
    expect(check).toMatchObject({ ok: true, error: null });
    expect(check.patient_code).toMatch(/^PAT\d{12}$/);

    expect(await patientCount()).toBe(patientsBefore);
    expect(await lastAuditId(lab)).toBe(auditBefore);
    expect((await countsOf(lab.admin)).patients).toBe(patientsBefore);
    expect(await numbersUsed()).toEqual(numbersBefore);
  });
});
