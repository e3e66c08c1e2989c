import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { it } from 'vitest';
import { startApp, DESKTOP, MOBILE } from './harness.js';
import { entityNamed, runImport } from '../../src/core/transfer/index.js';
import { row } from '../db.js';

it('look', async () => {
  const app = await startApp({ roles: ['lab_manager'] });
  const admin = await app.signedInPage('/dashboard');
  const api = async (method: string, url: string, data?: unknown) => {
    const r = await admin.request.fetch(url, { method, data, headers: { 'content-type': 'application/json' } });
    return r.json();
  };
  const test = await api('POST', '/api/tests', { name: 'Haemoglobin', code: 'HB', price: 150, unit: 'g/dL', normal_range: '12-15' });
  const patient = await api('POST', '/api/patients', { first_name: 'Meera', last_name: 'Iyer', date_of_birth: '1980-03-02', gender: 'Female', phone: '9876500031' });
  const sample = await api('POST', '/api/samples', { patient_id: patient.patient.id, sample_type: 'Blood', test_ids: [test.test.id] });
  const mgr = app.users.lab_manager!;
  const u = await row<{ id: number }>(app.database, 'SELECT id FROM users WHERE email = ?', mgr.email);
  const dir = mkdtempSync(join(tmpdir(), 'look-'));
  writeFileSync(join(dir, 'r.csv'), `sample_id,test_code,result_value,unit,normal_range,flag,status,verified_by,verified_at\n${sample.sample.sample_id},HB,12.9,g/dL,12-15,normal,verified,Dr. A. Rao,2025-06-01T10:00:00Z\n`);
  const res = await runImport(app.database.db, { userId: u!.id, email: mgr.email, role: 'lab_manager', organizationId: app.organizationId! }, {
    entity: entityNamed('results')!, path: join(dir, 'r.csv'), dryRun: false, update: false, origin: 'cli', reportPath: (id) => join(dir, `${id}.csv`),
  });
  console.log(JSON.stringify(res.first_errors));
  const pdf = await admin.request.get(`/api/samples/${sample.sample.id}/report.pdf`);
  writeFileSync('/tmp/quota-look/report.pdf', await pdf.body());
  await admin.goto('/result-validation?status=all');
  await admin.waitForTimeout(1500);
  await admin.screenshot({ path: '/tmp/quota-look/validation-1280.png' });
  const p2 = await app.signedInPage('/result-validation?status=all', undefined, MOBILE);
  await p2.waitForTimeout(1500);
  await p2.screenshot({ path: '/tmp/quota-look/validation-390.png' });
  await admin.setViewportSize(DESKTOP);
  await app.close();
}, 120_000);
