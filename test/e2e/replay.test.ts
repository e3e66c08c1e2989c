import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createConnection } from '../../src/core/interfaces/service.js';
import { connectionCreateSchema } from '../../src/shared/schemas/connections.js';
import { systemActor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * Replay a capture on a connection, in the browser: the Sysmex XN-550 transcript (frames and
 * checksums as the machine sent them) is chosen as a file and each record shows what it would
 * become; nothing is stored. At desktop width and on a 390 px phone.
 */

let app: E2eApp;
const watch = screenshotFailures();
const capture = join(import.meta.dirname, '../fixtures/external/astm_e1381_sysmex_xn550_cbc.txt');

beforeAll(async () => {
  app = await startApp({});
  const system = systemActor(app.organizationId!);
  const db = app.database.db;
  const make = (code: string, name: string) =>
    createTest(db, system, testCreateSchema.parse({ name, code, unit: 'g/dL', price: 100, sample_type: 'Blood' }));
  const hgb = await make('RHGB', 'Haemoglobin');
  const wbc = await make('RWBC', 'Total WBC Count');
  const p = await createPatient(
    db,
    system,
    patientCreateSchema.parse({ first_name: 'Asha', last_name: 'Rao', date_of_birth: '1975-01-01', gender: 'Female' }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({ patient_id: p.id, sample_type: 'Blood', test_ids: [hgb.id], location: 'Main Lab' }),
  );
  await db.updateTable('samples').set({ barcode: '27' }).where('id', '=', s.id).execute();
  await createConnection(
    db,
    system,
    connectionCreateSchema.parse({
      name: 'Sysmex XN-550',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 6431,
      code_map: [
        { code: 'HGB', test_id: hgb.id },
        { code: 'WBC', test_id: wbc.id },
      ],
    }),
  );
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('Machine Integration: replay a capture', () => {
  it.each([
    ['desktop', undefined],
    ['phone', MOBILE],
  ] as const)('on %s, each record shows the sample and test it would reach, or why not', async (kind, viewport) => {
    const page = watch(await app.signedInPage('/machines', undefined, viewport));
    await page.getByRole('button', { name: 'Replay a capture on Sysmex XN-550' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay a Capture: Sysmex XN-550' });
    await dialog.getByLabel('Capture file').setInputFiles(capture);
    await expect.poll(() => dialog.getByLabel('Or paste the messages').inputValue()).toContain('H|');
    await dialog.getByRole('button', { name: 'Show What It Would Become' }).click();
    const rows = dialog.getByRole('table', { name: 'What the capture would become' }).getByRole('row');
    const hgb = rows.filter({ hasText: 'HGB' }).first();
    await hgb.getByText('Would be entered').waitFor();
    await expect(hgb.textContent()).resolves.toContain('8.0');
    // The WBC test is not ordered on the sample: it would be refused, with the reason.
    await rows.filter({ hasText: 'WBC' }).first().getByText('not ordered', { exact: false }).waitFor();
    await dialog.getByText('1 message (ASTM)', { exact: false }).waitFor();
    await screenshot(page, `replay-${kind}`);
    const stored = await app.database.db.selectFrom('test_results').select('id').execute();
    expect(stored).toEqual([]);
  });
});
