import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { verifyResult } from '../../src/core/results/verification.js';
import { deliverDueReports } from '../../src/core/interop-out/delivery.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';

/**
 * Machine Integration's reports out (issue 18): a lab adds a hospital's HL7 receiver on /machines,
 * a report verified afterwards is delivered to it (a listener here answers AA), and the delivery
 * log shows it with the hospital's answer; a bad address is refused at the field and stores nothing.
 */

let app: E2eApp;
let fbs: number;
let hospital: Server;
let hospitalPort: number;
const received: string[] = [];
const watch = screenshotFailures();

async function actorOf(role: 'lab_technician' | 'validator'): Promise<Actor> {
  const u = await app.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users[role]!.email)
    .executeTakeFirstOrThrow();
  return { userId: u.id, email: app.users[role]!.email, role, organizationId: app.organizationId! };
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'] });
  fbs = (
    await createTest(
      app.database.db,
      systemActor(app.organizationId!),
      testCreateSchema.parse({
        name: 'Fasting Blood Sugar',
        code: 'FBS',
        price: 120,
        unit: 'mg/dL',
        normal_range: '70-110',
      }),
    )
  ).id;
  // The hospital's interface engine: acknowledges every ORU with AA.
  hospital = createServer((socket) => {
    let buf = '';
    socket.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      const end = buf.indexOf('\x1c\r');
      if (end < 0) return;
      const msg = buf.slice(buf.indexOf('\x0b') + 1, end);
      buf = '';
      received.push(msg);
      const id = msg.split('\r')[0]!.split('|')[9];
      socket.write(`\x0bMSH|^~\\&|HIS|CITY|LIMS|LAB|20261126120000||ACK^R01|A${id}|P|2.5.1\rMSA|AA|${id}\r\x1c\r`);
    });
  });
  await new Promise<void>((r) => hospital.listen(0, '127.0.0.1', r));
  hospitalPort = (hospital.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((r) => hospital?.close(r));
  await app?.close();
});

const receivers = (page: Page) => page.getByRole('table', { name: 'Report receivers' });
const deliveries = (page: Page) => page.getByRole('table', { name: 'Report deliveries' });

describe('Machine Integration: report receivers', () => {
  it('adds a hospital receiver, refuses a bad host at its field, and shows the verified report delivered with its AA', async () => {
    const db = app.database.db;
    const page = watch(await app.signedInPage('/machines'));
    await page.getByRole('heading', { name: 'Report Receivers' }).waitFor();
    await receivers(page).getByText('No receivers yet').waitFor();

    // A bad host: named at its field, nothing stored.
    await page.getByRole('button', { name: 'Add Receiver' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Receiver' });
    await dialog.getByLabel('Name', { exact: true }).fill('City Hospital HIS');
    await dialog.getByLabel('Host', { exact: true }).fill('bad host!');
    await dialog.getByLabel('Port', { exact: true }).fill(String(hospitalPort));
    await dialog.getByRole('button', { name: 'Add Receiver' }).click();
    await dialog.getByText('Host must be a host name or an IP address').waitFor();
    expect(await db.selectFrom('interop_receivers').select('id').execute()).toHaveLength(0);

    await dialog.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await dialog.getByRole('button', { name: 'Add Receiver' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = receivers(page).getByRole('row').filter({ hasText: 'City Hospital HIS' });
    await row.getByText(`HL7 v2 over MLLP · 127.0.0.1:${hospitalPort}`).waitFor();
    await row.getByText('enabled').waitFor();
    const stored = await db.selectFrom('interop_receivers').selectAll().execute();
    expect(stored.map((r) => [r.name, r.kind, r.host, Number(r.port), r.payer_id])).toEqual([
      ['City Hospital HIS', 'mllp', '127.0.0.1', hospitalPort, null],
    ]);
    await screenshot(page, 'machines-receivers');

    // A report verified now is queued for it and sent (the server's sender does this every 5 s).
    const system = systemActor(app.organizationId!);
    const p = await createPatient(
      db,
      system,
      patientCreateSchema.parse({
        first_name: 'Meera',
        last_name: 'Pillai',
        date_of_birth: '1972-03-03',
        gender: 'Female',
      }),
    );
    const s = await createSample(
      db,
      system,
      sampleCreateSchema.parse({ patient_id: p.id, sample_type: 'Blood', test_ids: [fbs], location: 'Main Lab' }),
    );
    const r = await createResult(db, await actorOf('lab_technician'), {
      sample_id: s.id,
      test_id: fbs,
      result_value: '96',
    } as never);
    await verifyResult(db, await actorOf('validator'), r.id!);
    const sent = await deliverDueReports(db, { timeoutMs: 10_000 });
    expect(sent.map((d) => d.outcome)).toEqual(['sent']);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain(s.sample_id);
    expect(received[0]).toMatch(/OBX\|1\|NM\|[^|]*FBS[^|]*\|\|96\|/);

    await page.reload();
    const delivered = deliveries(page).getByRole('row').filter({ hasText: s.sample_id });
    await delivered.getByText('Sent', { exact: true }).waitFor();
    await delivered.getByText('AA', { exact: true }).waitFor();
    await delivered.getByText('to City Hospital HIS').waitFor();
    // The receiver's counts follow the log.
    await receivers(page)
      .getByRole('row')
      .filter({ hasText: 'City Hospital HIS' })
      .getByRole('cell', { name: '1', exact: true })
      .first()
      .waitFor();
    await screenshot(page, 'machines-deliveries', { fullPage: true });

    // Filtering the log by status: nothing failed.
    await page.getByLabel('Delivery status').selectOption({ label: 'Failed' });
    await deliveries(page).getByText('No deliveries with this status').waitFor();
  });

  it('fits a 390 px phone', async () => {
    const phone = watch(await app.signedInPage('/machines', app.admin, MOBILE));
    await receivers(phone).getByText('City Hospital HIS').waitFor();
    await deliveries(phone).getByRole('cell').getByText('Sent', { exact: true }).first().waitFor();
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(phone, 'machines-receivers-mobile', { fullPage: true });
  });
});
