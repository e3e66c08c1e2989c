import net from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createTest } from '../../src/core/catalogue/tests.js';
import { createPatient } from '../../src/core/patients/service.js';
import { createSample } from '../../src/core/samples/service.js';
import { createResult } from '../../src/core/results/entry.js';
import { verifyResult } from '../../src/core/results/verification.js';
import { deliverDueReports } from '../../src/core/interop-out/delivery.js';
import { createConnection } from '../../src/core/interfaces/service.js';
import { importFile } from '../../src/core/interfaces/listeners.js';
import { findConnectionRow } from '../../src/core/interfaces/repository.js';
import { MllpDecoder, mllpWrap } from '../../src/core/interfaces/hl7/mllp.js';
import { parseHl7 } from '../../src/core/interfaces/hl7/message.js';
import { connectionCreateSchema } from '../../src/shared/schemas/connections.js';
import { systemActor, type Actor } from '../../src/core/context.js';
import { testCreateSchema } from '../../src/shared/schemas/catalogue.js';
import { patientCreateSchema } from '../../src/shared/schemas/patients.js';
import { sampleCreateSchema } from '../../src/shared/schemas/samples.js';
import { MOBILE, screenshot, screenshotFailures, startApp, type E2eApp } from './harness.js';
import { ACK, freePort, mllpReceiver, listenersFor, SimMachine, until } from '../api/interface-support.js';

/**
 * Machine Integration, in a browser. Results in: a new user sets up a Sysmex connection
 * on /machines with its code map, the XN-550 transcript is replayed into it by a script speaking
 * E1381 like the machine, and the CBC waits for verification on sample 27; the cobas transcript's
 * unmapped code is assigned from the Unmatched queue; the NIST ORU over MLLP gets its ACK. Reports
 * out: a hospital's HL7 receiver is added, a report verified afterwards is delivered to it (a
 * listener here answers AA) and the delivery log shows the answer; a bad address is refused at its
 * field and stores nothing.
 */

let app: E2eApp;
let fbs: number;
let hospital: Awaited<ReturnType<typeof mllpReceiver>>;
let hospitalPort: number;
let received: string[];
let listeners: Awaited<ReturnType<typeof listenersFor>>;
const tests: Record<string, number> = {};
const watch = screenshotFailures();
const FIXTURES = join(import.meta.dirname, '../fixtures/external');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

async function actorOf(role: 'lab_technician' | 'validator'): Promise<Actor> {
  const u = await app.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', app.users[role]!.email)
    .executeTakeFirstOrThrow();
  return { userId: u.id, email: app.users[role]!.email, role, organizationId: app.organizationId! };
}

beforeAll(async () => {
  app = await startApp({ roles: ['lab_technician', 'validator'], allowPrivateOutbound: true });
  const system = systemActor(app.organizationId!);
  const make = async (code: string, name: string, unit: string, normal_range: string) =>
    (tests[code] = (
      await createTest(app.database.db, system, testCreateSchema.parse({ name, code, price: 120, unit, normal_range }))
    ).id);
  fbs = await make('FBS', 'Fasting Blood Sugar', 'mg/dL', '70-110');
  await make('WBC', 'Total WBC Count', '10^3/uL', '4.0-11.0');
  await make('RBC', 'RBC Count', '10^6/uL', '4.5-5.5');
  await make('HGB', 'Haemoglobin', 'g/dL', '13.0-17.0');
  await make('HCT', 'Haematocrit', '%', '40-50');
  await make('PLT', 'Platelet Count', '10^3/uL', '150-450');
  await make('ALT', 'ALT (SGPT)', 'U/L', '7-56');
  await make('AST', 'AST (SGOT)', 'U/L', '8-48');
  await make('CREA', 'Creatinine', 'umol/L', '60-110');
  await make('ALP', 'Alkaline Phosphatase', 'U/L', '44-147');
  await make('BILD', 'Bilirubin Direct', 'umol/L', '0-5');
  await make('CHOL', 'Cholesterol', 'mmol/L', '0-5.2');
  await make('BILT', 'Bilirubin Total', 'umol/L', '2-21');
  // The hospital's interface engine: acknowledges every ORU with AA.
  hospital = await mllpReceiver();
  hospitalPort = hospital.port;
  received = hospital.received;
  // What `lims serve` runs next to the web server: the enabled connections' listeners.
  listeners = await listenersFor(() => app.database.db, app.organizationId!);
});

afterAll(async () => {
  await listeners?.stop();
  await hospital?.close();
  await app?.close();
});

const receivers = (page: Page) => page.getByRole('table', { name: 'Report receivers' });
const deliveries = (page: Page) => page.getByRole('table', { name: 'Report deliveries' });

/** A patient's sample with these tests ordered, labelled with the number the machine reads. */
async function tubeWith(barcode: string, lastName: string, codes: string[]): Promise<{ id: number; code: string }> {
  const db = app.database.db;
  const system = systemActor(app.organizationId!);
  const p = await createPatient(
    db,
    system,
    patientCreateSchema.parse({
      first_name: 'Kiran',
      last_name: lastName,
      date_of_birth: '1980-01-01',
      gender: 'Male',
    }),
  );
  const s = await createSample(
    db,
    system,
    sampleCreateSchema.parse({
      patient_id: p.id,
      sample_type: 'Blood',
      test_ids: codes.map((c) => tests[c]!),
      location: 'Main Lab',
    }),
  );
  await db.updateTable('samples').set({ barcode }).where('id', '=', s.id).execute();
  return { id: s.id, code: s.sample_id };
}

const CBC = ['WBC', 'RBC', 'HGB', 'HCT', 'PLT'];

describe('Machine Integration: results from the machines', () => {
  it('a Sysmex set up on screen sends a CBC that waits for verification; a cobas code is assigned from Unmatched; an HL7 ORU is ACKed', async () => {
    const db = app.database.db;
    const tube = await tubeWith('27', 'Nair', CBC);
    const port = await freePort();
    const page = watch(await app.signedInPage('/machines'));

    // The connection, as a new user sets it up: TCP server on a local port, the code map, enabled.
    await page.getByRole('button', { name: 'Add Connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Connection' });
    await dialog.getByLabel('Name', { exact: true }).fill('Sysmex XN-550');
    await dialog.getByLabel('Listen on (address)').fill('127.0.0.1');
    await dialog.getByLabel('Port', { exact: true }).fill(String(port));
    await dialog.getByLabel('Enabled (listen now)').check();
    const codes = [...CBC.map((c) => ({ code: c, test: c })), { code: 'SCAT_WDF', test: null }];
    for (const [i, row] of codes.entries()) {
      await dialog.getByRole('button', { name: 'Add Code' }).click();
      await dialog.getByLabel('Machine code').nth(i).fill(row.code);
      if (row.test)
        await dialog
          .getByLabel('Test', { exact: true })
          .nth(i)
          .selectOption({ value: String(tests[row.test]) });
      else await dialog.getByLabel(`Ignore code ${row.code}`).check();
    }
    await screenshot(page, 'machines-connection-dialog');
    await dialog.getByRole('button', { name: 'Add Connection' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const conn = page
      .getByRole('table', { name: 'Machine connections' })
      .getByRole('row')
      .filter({ hasText: 'Sysmex XN-550' });
    await conn.getByText('listening').waitFor();
    const stored = await db
      .selectFrom('connections')
      .selectAll()
      .where('name', '=', 'Sysmex XN-550')
      .executeTakeFirstOrThrow();
    expect([stored.protocol, stored.transport, stored.port, stored.enabled]).toEqual(['astm', 'tcp-server', port, 1]);
    expect(JSON.parse(stored.code_map)).toEqual([
      ...CBC.map((c) => ({ code: c, test_id: tests[c], unit: null, factor: null })),
      { code: 'SCAT_WDF', ignore: true },
    ]);

    // The machine's transmission, byte for byte: ENQ, the frame, EOT, each answered.
    const machine = await SimMachine.connect(port);
    expect(await machine.send([fixture('astm_e1381_sysmex_xn550_cbc.txt')])).toEqual([ACK, ACK]);
    await machine.close();
    const cbc = await until('the CBC', async () => {
      const rows = await db
        .selectFrom('test_results')
        .select(['test_id', 'result_value', 'technician_id', 'verified_by', 'status'])
        .where('sample_id', '=', tube.id)
        .where('result_value', 'is not', null)
        .execute();
      return rows.length === 5 ? rows : undefined;
    });
    expect(new Map(cbc.map((r) => [r.test_id, r.result_value]))).toEqual(
      new Map([
        [tests.WBC, '8.13'],
        [tests.RBC, '2.60'],
        [tests.HGB, '8.0'],
        [tests.HCT, '22.7'],
        [tests.PLT, '99'],
      ]),
    );
    expect(cbc.every((r) => r.technician_id === stored.service_user_id && r.verified_by === null)).toBe(true);

    // On Result Validation, the five wait on sample 27's tube, flagged, not yet validated.
    await page.goto(`/result-validation?search=${tube.code}`);
    const queue = page.getByRole('table', { name: 'Validation queue' });
    await queue.getByText('Total WBC Count').waitFor();
    for (const name of ['RBC Count', 'Haemoglobin', 'Haematocrit', 'Platelet Count'])
      await queue.getByText(name, { exact: true }).waitFor();
    // Entered by the machine, never validated by it: Pending, or Review Required when flagged (HGB low).
    const row = (name: string) => queue.getByRole('row').filter({ hasText: name });
    await row('Total WBC Count').getByText('8.13').waitFor();
    await row('Total WBC Count').getByText('Pending', { exact: true }).waitFor();
    await row('Haemoglobin').getByText('Review Required', { exact: true }).first().waitFor();
    expect(await queue.getByText('Validated', { exact: true }).count()).toBe(0);
    await screenshot(page, 'machines-cbc-validation');

    // cobas c311: six codes mapped, 690/ not; its file is imported (lims interface import).
    const cobasTube = await tubeWith('11625', 'Menon', ['ALT', 'AST', 'CREA', 'ALP', 'BILD', 'CHOL', 'BILT']);
    const admin = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', app.admin.email)
      .executeTakeFirstOrThrow();
    const actor = {
      userId: admin.id,
      email: app.admin.email,
      role: 'superadmin' as const,
      organizationId: app.organizationId!,
    };
    const cobasMap = { '685/': 'ALT', '687/': 'AST', '712/': 'CREA', '158/': 'ALP', '735/': 'BILD', '717/': 'CHOL' };
    const cobas = await createConnection(
      db,
      actor,
      connectionCreateSchema.parse({
        name: 'cobas c311',
        protocol: 'astm',
        transport: 'tcp-server',
        port: await freePort(),
        code_map: Object.entries(cobasMap).map(([code, t]) => ({ code, test_id: tests[t] })),
      }),
    );
    const cobasRow = (await findConnectionRow(db, app.organizationId!, cobas.id))!;
    expect(await importFile(db, cobasRow, fixture('astm_e1381_roche_cobas_c311.txt'))).toEqual({
      ok: true,
      messages: 1,
      entered: 6,
      unmatched: 1,
      ignored: 0,
    });

    // The technician clears it: the oldest wait first, so 690/ is on the last page after the Sysmex's.
    await page.goto('/machines');
    await page.getByRole('heading', { name: 'Unmatched Results (32)' }).waitFor();
    const unmatched = page.getByRole('table', { name: 'Unmatched results' });
    const unmatchedCard = page
      .locator('div')
      .filter({ has: page.getByRole('heading', { name: /^Unmatched Results/ }) })
      .filter({ has: unmatched })
      .last();
    await unmatchedCard.getByRole('button', { name: 'Last page' }).click();
    await unmatched.getByRole('button', { name: 'Assign 690/ 34' }).click();
    const assign = page.getByRole('dialog', { name: 'Assign Unmatched Result' });
    await expect.poll(() => assign.getByLabel('Sample (barcode or sample ID)').inputValue()).toBe(cobasTube.code);
    await assign.getByLabel('Test', { exact: true }).selectOption({ value: String(tests.BILT) });
    await screenshot(page, 'machines-assign');
    await assign.getByRole('button', { name: 'Enter Result' }).click();
    await assign.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { name: 'Unmatched Results (31)' }).waitFor();
    const cleared = await db
      .selectFrom('interface_unmatched')
      .select(['status', 'result_id'])
      .where('connection_id', '=', cobas.id)
      .execute();
    expect(cleared).toHaveLength(1);
    expect(cleared[0]!.status).toBe('assigned');
    const bilt = await db
      .selectFrom('test_results')
      .select(['id', 'result_value', 'flag', 'verified_by'])
      .where('sample_id', '=', cobasTube.id)
      .where('test_id', '=', tests.BILT!)
      .executeTakeFirstOrThrow();
    expect([bilt.id, bilt.result_value, bilt.flag, bilt.verified_by]).toEqual([
      cleared[0]!.result_id,
      '34',
      'high',
      null,
    ]);

    // An HL7 feed: the NIST ORU over MLLP is answered AA with its control id.
    const hl7Port = await freePort();
    await createConnection(
      db,
      actor,
      connectionCreateSchema.parse({
        name: 'HL7 feed',
        protocol: 'hl7',
        transport: 'tcp-server',
        port: hl7Port,
        enabled: true,
      }),
    );
    await page.reload();
    await page
      .getByRole('table', { name: 'Machine connections' })
      .getByRole('row')
      .filter({ hasText: 'HL7 feed' })
      .getByText('listening')
      .waitFor();
    const socket = net.connect({ port: hl7Port, host: '127.0.0.1' });
    const acks: string[] = [];
    const decoder = new MllpDecoder((b) => acks.push(b.toString('utf8')));
    socket.on('data', (d) => decoder.receive(d));
    await new Promise<void>((r) => socket.once('connect', r));
    socket.write(mllpWrap(fixture('hl7_ORU_R01_nist_2.5.1_case1.er7').toString('utf8')));
    await until('the ACK', async () => acks.length === 1);
    socket.destroy();
    const ack = parseHl7(acks[0]!);
    expect([ack.get(ack.segment('MSA'), 1), ack.get(ack.segment('MSA'), 2)]).toEqual(['AA', 'NIST-100929110701660']);

    // The message log shows all three, newest first, with what each did.
    await page.reload();
    const log = page.getByRole('table', { name: 'Interface messages' });
    const rows = log.getByRole('row');
    await rows.filter({ hasText: 'HL7 feed' }).getByText('AA', { exact: true }).waitFor();
    await rows.filter({ hasText: 'Sysmex XN-550' }).getByText('5 / 31 (1 ignored)').waitFor();
    await rows.filter({ hasText: 'cobas c311' }).getByText('6 / 1').waitFor();
    await screenshot(page, 'machines-results-in', { fullPage: true });
  });
});

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
    const sent = await deliverDueReports(db, { timeoutMs: 10_000, allowPrivateOutbound: true });
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
    // The connections and the code map editor fit too.
    await phone.getByRole('button', { name: 'Edit Sysmex XN-550' }).click();
    const edit = phone.getByRole('dialog', { name: 'Edit Connection: Sysmex XN-550' });
    await edit.getByText('Ignored: kept in the message log').scrollIntoViewIfNeeded();
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(phone, 'machines-connection-mobile');
  });
});
