import net from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { otherLabAdmin } from './support.js';
import {
  ACK,
  createConnectionAs,
  freePort,
  listeningOf,
  listenersFor,
  sampleWithBarcode,
  SimMachine,
  until,
} from './interface-support.js';
import { seedSample } from './lab-records.js';
import { importFile } from '../../src/core/interfaces/listeners.js';
import { findConnectionRow } from '../../src/core/interfaces/repository.js';
import { mllpWrap, MllpDecoder } from '../../src/core/interfaces/hl7/mllp.js';
import { parseHl7 } from '../../src/core/interfaces/hl7/message.js';
import type { Connection, InterfaceMessage, Unmatched } from '../../src/shared/schemas/connections.js';
import type { TestResult } from '../../src/shared/schemas/results.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/external');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));
let lab: TestLab;
let listeners: Awaited<ReturnType<typeof listenersFor>>;
const tests: Record<string, number> = {};
let patient: number;
let machine: number;

const createConnection = (body: Record<string, unknown>) => createConnectionAs(lab, body);
const listening = (id: number) => listeningOf(lab, id);
const sampleWith = (barcode: string, testIds: number[]) => sampleWithBarcode(lab, patient, barcode, testIds);

async function resultsOf(sampleId: number): Promise<TestResult[]> {
  const res = await lab.admin.get(`/api/test-results?sample_id=${sampleId}&limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ results: TestResult[] }>().results;
}

/** A machine's whole transmission on a socket of its own. */
async function sendAstm(port: number, frames: Buffer[]): Promise<number[]> {
  const machine = await SimMachine.connect(port);
  const replies = await machine.send(frames);
  await machine.close();
  return replies;
}

beforeAll(async () => {
  lab = await makeLab();
  const make = async (code: string, name: string, unit: string, normal_range: string) => {
    const res = await lab.admin.post('/api/tests', { name, code, unit, normal_range, price: 100 });
    expect(res.statusCode, res.body).toBe(201);
    tests[code] = res.json<{ test: { id: number } }>().test.id;
  };
  await make('WBC', 'Total WBC Count', '10^3/uL', '4.0-11.0');
  await make('RBC', 'RBC Count', '10^6/uL', '4.5-5.5');
  await make('HGB', 'Haemoglobin', 'g/dL', '13.0-17.0');
  await make('HCT', 'Haematocrit', '%', '40-50');
  await make('PLT', 'Platelet Count', 'lakh/cumm', '1.5-4.5');
  await make('ALT', 'ALT (SGPT)', 'U/L', '7-56');
  await make('AST', 'AST (SGOT)', 'U/L', '8-48');
  await make('CREA', 'Creatinine', 'umol/L', '60-110');
  await make('ALP', 'Alkaline Phosphatase', 'U/L', '44-147');
  await make('BILD', 'Bilirubin Direct', 'umol/L', '0-5');
  await make('CHOL', 'Cholesterol', 'mmol/L', '0-5.2');
  await make('BILT', 'Bilirubin Total', 'umol/L', '2-21');
  for (let i = 0; i < 10; i++) await make(`BT${i}`, `Burst Test ${i}`, 'mg/dL', '0-100');
  patient = (
    await lab.admin.post('/api/patients', {
      first_name: 'Ravi',
      last_name: 'Machinewala',
      date_of_birth: '1987-06-26',
      gender: 'Male',
    })
  ).json<{ patient: { id: number } }>().patient.id;
  const eq = await lab.admin.post('/api/equipment', {
    kind: 'machine',
    name: 'Sysmex XN-550',
    model: 'XN-550',
    serial_number: `XN-${Date.now()}`,
    type: 'Hematology Analyzer',
    location: 'Haematology',
  });
  expect(eq.statusCode, eq.body).toBe(201);
  machine = eq.json<{ equipment: { id: number } }>().equipment.id;
  listeners = await listenersFor(() => lab.database.db, lab.organizationId);
});

afterAll(async () => {
  await listeners?.stop();
  await lab?.close();
});

describe('connections', () => {
  it('are created, read, changed, enabled and deleted by manage_lab; bad input is 400 naming the field', async () => {
    const bad = await lab.admin.post('/api/connections', { name: 'X', protocol: 'astm', transport: 'tcp-server' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { path: string }) => d.path)).toContain('port');
    const serial = await lab.admin.post('/api/connections', {
      name: 'X',
      protocol: 'astm',
      transport: 'serial',
      baud_rate: 9601,
      parity: 'mark',
    });
    expect(
      serial
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['baud_rate', 'parity']);
    const noDevice = await lab.admin.post('/api/connections', { name: 'X', protocol: 'astm', transport: 'serial' });
    expect(noDevice.json().details).toEqual([
      { path: 'path', message: 'Serial port is required (e.g. /dev/ttyUSB0 or COM3)' },
    ]);
    const unknownTest = await lab.admin.post('/api/connections', {
      name: 'X',
      protocol: 'hl7',
      transport: 'tcp-server',
      port: 9999,
      code_map: [{ code: 'A', test_id: 999999 }],
    });
    expect(unknownTest.statusCode).toBe(400);
    expect(unknownTest.json().details[0].path).toBe('code_map.0.test_id');
    const twice = await lab.admin.post('/api/connections', {
      name: 'X',
      protocol: 'hl7',
      transport: 'tcp-server',
      port: 9999,
      code_map: [
        { code: 'a', test_id: tests.ALT },
        { code: 'A', test_id: tests.AST },
      ],
    });
    expect(twice.json().details[0].path).toBe('code_map.1.code');
    expect((await lab.admin.get('/api/connections')).json().connections).toHaveLength(0);

    const c = await createConnection({
      name: 'Spare analyser',
      protocol: 'hl7',
      transport: 'tcp-client',
      host: '10.0.0.9',
      port: 5100,
      code_map: [{ code: 'GLU', test_id: tests.CHOL, unit: 'mg/dL', factor: 0.0259 }],
    });
    expect(c).toMatchObject({ enabled: false, lenient: true, listen_status: 'stopped', messages: 0 });
    expect(c.code_map).toEqual([
      { code: 'GLU', test_id: tests.CHOL, test_name: 'Cholesterol', unit: 'mg/dL', factor: 0.0259, ignore: false },
    ]);
    expect((await lab.admin.post('/api/connections', { ...c, id: undefined })).statusCode).toBe(409);
    const put = await lab.admin.put(`/api/connections/${c.id}`, { transport: 'tcp-server', host: null, port: 5101 });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().connection).toMatchObject({ transport: 'tcp-server', port: 5101, host: null });
    const noPort = await lab.admin.put(`/api/connections/${c.id}`, { port: null });
    expect(noPort.statusCode).toBe(400);
    expect(noPort.json().details[0].path).toBe('port');

    const tech = await lab.as('lab_technician');
    expect((await tech.get('/api/connections')).statusCode).toBe(403);
    expect((await tech.post('/api/connections', { name: 'Y' })).statusCode).toBe(403);
    expect((await tech.get('/api/connections/unmatched')).statusCode).toBe(200);

    const { admin: other } = await otherLabAdmin(lab);
    expect((await other.get(`/api/connections/${c.id}`)).statusCode).toBe(404);
    expect((await other.get('/api/connections')).json().connections).toHaveLength(0);

    // The machine's account cannot sign in.
    const account = await lab.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', c.service_user_id)
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ password_hash: '', is_active: 0, role: 'lab_technician' });

    expect((await lab.admin.delete(`/api/connections/${c.id}`)).statusCode).toBe(200);
    expect((await lab.admin.get(`/api/connections/${c.id}`)).statusCode).toBe(404);
    const audit = await lab.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity', '=', 'connection')
      .where('entity_id', '=', String(c.id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });

  it('a port in use is an error shown on the connection, not a crash', async () => {
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    try {
      const c = await createConnection({
        name: 'Busy port',
        protocol: 'astm',
        transport: 'tcp-server',
        port,
        enabled: true,
      });
      const shown = await until('the port error', async () => {
        const x = (await lab.admin.get(`/api/connections/${c.id}`)).json<{ connection: Connection }>().connection;
        return x.listen_status === 'error' ? x : undefined;
      });
      expect(shown.last_error).toBe(`Port ${port} is in use by another program`);
      expect((await lab.admin.post(`/api/connections/${c.id}/disable`)).json().connection.enabled).toBe(false);
    } finally {
      blocker.close();
    }
  });
});

describe('results in', () => {
  it('Sysmex XN-550 over TCP (E1381): the CBC lands on sample 27, unverified, entered by the machine', async () => {
    const port = await freePort();
    const sample = await sampleWith('27', [tests.WBC!, tests.RBC!, tests.HGB!, tests.HCT!, tests.PLT!]);
    const c = await createConnection({
      name: 'Sysmex XN-550',
      equipment_id: machine,
      protocol: 'astm',
      transport: 'tcp-server',
      port,
      enabled: true,
      code_map: [
        { code: 'WBC', test_id: tests.WBC, unit: '10*3/uL' },
        { code: 'RBC', test_id: tests.RBC, unit: '10*6/uL' },
        { code: 'HGB', test_id: tests.HGB, unit: 'g/dL' },
        { code: 'HCT', test_id: tests.HCT, unit: '%' },
        // 10^3/uL to lakh/cumm
        { code: 'PLT', test_id: tests.PLT, unit: '10*3/uL', factor: 0.01 },
      ],
    });
    await listening(c.id);
    const replies = await sendAstm(port, [fixture('astm_e1381_sysmex_xn550_cbc.txt')]);
    expect(replies).toEqual([ACK, ACK]);
    const results = await until('the CBC', async () => {
      const r = await resultsOf(sample);
      return r.filter((x) => x.result_value !== null).length === 5 ? r : undefined;
    });
    const byTest = new Map(results.map((r) => [r.test_id, r]));
    expect(byTest.get(tests.WBC!)).toMatchObject({ result_value: '8.13', unit: '10*3/uL', status: 'completed' });
    // The value exactly as the machine sent it: 8.0, its trailing zero kept.
    expect(byTest.get(tests.HGB!)).toMatchObject({ result_value: '8.0', flag: 'low' });
    expect(byTest.get(tests.HCT!)).toMatchObject({ result_value: '22.7', flag: 'low' });
    expect(byTest.get(tests.PLT!)).toMatchObject({ result_value: '0.99', unit: 'lakh/cumm', flag: 'low' });
    for (const r of results) {
      expect(r.status).toBe('completed');
      expect(r.verified_by).toBeNull();
      expect(r.technician_id).toBe(c.service_user_id);
      expect(r.equipment_id).toBe(machine);
    }
    const log = (await lab.admin.get(`/api/connections/messages?connection_id=${c.id}`)).json<{
      messages: InterfaceMessage[];
    }>().messages;
    expect(log).toHaveLength(1);
    // 37 R records carry a value: 5 mapped, 32 (MCV, the differential, the IP messages, the scattergrams) unmatched.
    expect(log[0]).toMatchObject({
      direction: 'in',
      status: 'partial',
      results_count: 5,
      unmatched_count: 32,
      ack: 'ACK',
    });
    const detail = (await lab.admin.get(`/api/connections/messages/${log[0]!.id}`)).json().message;
    expect(detail.raw).toContain('R|1|^^^^WBC^1|8.13|10*3/uL');
    const raw = await lab.database.db
      .selectFrom('interface_messages')
      .select('raw')
      .where('id', '=', log[0]!.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(raw.raw).toString('latin1')).toContain('O|1||^^                    27');

    // The machine reconnects and sends again: nothing is entered twice; the repeats wait in Unmatched.
    await sendAstm(port, [fixture('astm_e1381_sysmex_xn550_cbc.txt')]);
    await until('the second message', async () => {
      const m = (await lab.admin.get(`/api/connections/messages?connection_id=${c.id}`)).json().messages;
      return m.length === 2 ? m : undefined;
    });
    expect(await resultsOf(sample)).toHaveLength(5);
    const refused = (await lab.admin.get(`/api/connections/unmatched?connection_id=${c.id}&limit=100`))
      .json<{ unmatched: Unmatched[] }>()
      .unmatched.filter((u) => u.reason === 'refused');
    expect(refused).toHaveLength(5);
    expect(refused[0]!.detail).toContain('already entered');
    await lab.admin.post(`/api/connections/${c.id}/disable`);
  });

  it('a code map ignores codes: the Sysmex IP messages and scattergrams are logged, not queued; the rest still wait', async () => {
    // Validation: a code needs its test or ignore, not both.
    const base = { name: 'X', protocol: 'astm', transport: 'tcp-server', port: 9998 };
    const noTest = await lab.admin.post('/api/connections', { ...base, code_map: [{ code: 'WBC' }] });
    expect(noTest.statusCode).toBe(400);
    expect(noTest.json().details).toEqual([
      { path: 'code_map.0.test_id', message: 'Choose the test, or ignore the code' },
    ]);
    const both = await lab.admin.post('/api/connections', {
      ...base,
      code_map: [{ code: 'WBC', test_id: tests.WBC, ignore: true }],
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().details).toEqual([{ path: 'code_map.0.test_id', message: 'An ignored code has no test' }]);
    const notBool = await lab.admin.post('/api/connections', {
      ...base,
      code_map: [{ code: 'WBC', ignore: 'yes' }],
    });
    expect(notBool.json().details[0].path).toBe('code_map.0.ignore');

    // The earlier Sysmex test's sample keeps its results; this one is a fresh tube numbered 27.
    await lab.database.db.updateTable('samples').set({ barcode: 'OLD-27' }).where('barcode', '=', '27').execute();
    const sample = await sampleWith('27', [tests.WBC!, tests.RBC!, tests.HGB!, tests.HCT!, tests.PLT!]);
    const ignored = [
      'Blasts/Abn_Lympho?',
      'Left_Shift?',
      'Atypical_Lympho?',
      'NRBC?',
      'RBC_Agglutination?',
      'Turbidity/HGB_Interference?',
      'Iron_Deficiency?',
      'HGB_Defect?',
      'Fragments?',
      'PLT_Clumps?',
      'SCAT_WDF',
      'SCAT_WDF-CBC',
      'DIST_RBC',
      'DIST_PLT',
    ];
    const c = await createConnection({
      name: 'Sysmex, flags ignored',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5202,
      code_map: [
        { code: 'WBC', test_id: tests.WBC },
        { code: 'RBC', test_id: tests.RBC },
        { code: 'HGB', test_id: tests.HGB },
        { code: 'HCT', test_id: tests.HCT },
        { code: 'PLT', test_id: tests.PLT, factor: 0.01 },
        ...ignored.map((code) => ({ code, ignore: true, test_id: null, unit: '' })),
      ],
    });
    expect(c.code_map[5]).toEqual({
      code: 'Blasts/Abn_Lympho?',
      test_id: null,
      test_name: null,
      unit: null,
      factor: null,
      ignore: true,
    });
    expect(c.code_map[0]).toMatchObject({ code: 'WBC', test_id: tests.WBC, ignore: false });
    // PUT takes the connection as GET returned it.
    const same = await lab.admin.put(`/api/connections/${c.id}`, c);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().connection.code_map).toEqual(c.code_map);

    const row = (await findConnectionRow(lab.database.db, lab.organizationId, c.id))!;
    const r = await importFile(lab.database.db, row, fixture('astm_e1381_sysmex_xn550_cbc.txt'));
    // 37 valued R records: 5 entered, 14 ignored, the 18 other parameters (MCV ... MPV) wait.
    expect(r).toEqual({ ok: true, messages: 1, entered: 5, unmatched: 18, ignored: 14 });
    expect((await resultsOf(sample)).filter((x) => x.result_value !== null)).toHaveLength(5);
    const log = (await lab.admin.get(`/api/connections/messages?connection_id=${c.id}`)).json<{
      messages: InterfaceMessage[];
    }>().messages;
    expect(log.map((m) => [m.status, m.results_count, m.unmatched_count, m.ignored_count])).toEqual([
      ['partial', 5, 18, 14],
    ]);
    const queued = (await lab.admin.get(`/api/connections/unmatched?connection_id=${c.id}&limit=100`)).json<{
      unmatched: Unmatched[];
    }>().unmatched;
    expect(queued).toHaveLength(18);
    expect(queued.filter((u) => ignored.includes(u.code))).toEqual([]);
    expect(queued.map((u) => u.code)).toContain('MCV');
    // The ignored values are still in the message as received.
    const detail = (await lab.admin.get(`/api/connections/messages/${log[0]!.id}`)).json().message;
    expect(detail.raw).toContain('R|32|^^^^Iron_Deficiency?|80|');
    const audit = await lab.database.db
      .selectFrom('audit_log')
      .select('new_values')
      .where('entity', '=', 'interface_message')
      .where('entity_id', '=', String(log[0]!.id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(audit.new_values))).toMatchObject({ results: 5, unmatched: 18, ignored: 14 });
  });

  it('cobas c311 transcript: 6 mapped results entered, the unmapped 690/ waits in Unmatched and is assigned from there', async () => {
    const sample = await sampleWith('11625', [
      tests.ALT!,
      tests.AST!,
      tests.CREA!,
      tests.ALP!,
      tests.BILD!,
      tests.CHOL!,
      tests.BILT!,
    ]);
    const c = await createConnection({
      name: 'cobas c311',
      protocol: 'astm',
      transport: 'tcp-server',
      port: 5201,
      code_map: [
        { code: '685/', test_id: tests.ALT, unit: 'U/l' },
        { code: '687/', test_id: tests.AST, unit: 'U/l' },
        { code: '712/', test_id: tests.CREA, unit: 'umol/l' },
        { code: '158/', test_id: tests.ALP, unit: 'U/l' },
        { code: '735/', test_id: tests.BILD, unit: 'umol/l' },
        { code: '717/', test_id: tests.CHOL, unit: 'mmol/l' },
      ],
    });
    const row = (await findConnectionRow(lab.database.db, lab.organizationId, c.id))!;
    // lims interface import FILE --connection NAME runs this.
    const r = await importFile(lab.database.db, row, fixture('astm_e1381_roche_cobas_c311.txt'));
    expect(r).toEqual({ ok: true, messages: 1, entered: 6, unmatched: 1, ignored: 0 });
    const entered = await resultsOf(sample);
    // Values are kept exactly as the machine sent them (15.0 stays 15.0); the seventh test waits.
    expect(entered.map((x) => x.result_value ?? 'pending').sort()).toEqual([
      '1.6',
      '15.0',
      '22.4',
      '301',
      '4.1',
      '5.85',
      'pending',
    ]);

    const tech = await lab.as('lab_technician');
    const queue = (await tech.get(`/api/connections/unmatched?connection_id=${c.id}`)).json<{
      unmatched: Unmatched[];
      total: number;
    }>();
    expect(queue.total).toBe(1);
    const u = queue.unmatched[0]!;
    expect(u).toMatchObject({
      specimen_id: '11625',
      code: '690/',
      value: '34',
      unit: 'umol/l',
      reason: 'unmapped_code',
      sample_id: sample,
      test_id: null,
      status: 'open',
    });
    const badAssign = await tech.post(`/api/connections/unmatched/${u.id}/assign`, { sample_id: sample });
    expect(badAssign.statusCode).toBe(400);
    expect(badAssign.json().details[0].path).toBe('test_id');
    const noSample = await tech.post(`/api/connections/unmatched/${u.id}/assign`, { test_id: tests.BILT });
    expect(noSample.json().details).toEqual([
      { path: 'sample', message: 'Sample is required: its barcode or sample ID' },
    ]);
    const unknown = await tech.post(`/api/connections/unmatched/${u.id}/assign`, {
      sample: 'NO-SUCH-TUBE',
      test_id: tests.BILT,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details).toEqual([
      { path: 'sample', message: 'No sample has the barcode or sample ID NO-SUCH-TUBE' },
    ]);
    // A value in another unit than the test's is not entered as if it were in the test's.
    const otherUnit = await tech.post(`/api/connections/unmatched/${u.id}/assign`, {
      sample: '11625',
      test_id: tests.CHOL,
    });
    expect(otherUnit.statusCode).toBe(400);
    expect(otherUnit.json().details).toEqual([
      {
        path: 'test_id',
        message:
          'The machine sent umol/l; Cholesterol is in mmol/L. Map the code 690/ to it with the factor that converts, then assign',
      },
    ]);
    // Staff name the sample as they know it: its barcode (or sample code).
    const assigned = await tech.post(`/api/connections/unmatched/${u.id}/assign`, {
      sample: '11625',
      test_id: tests.BILT,
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().result).toMatchObject({
      result_value: '34',
      status: 'completed',
      technician_id: c.service_user_id,
      flag: 'high',
    });
    expect(assigned.json().unmatched).toMatchObject({ status: 'assigned', result_id: assigned.json().result.id });
    expect(
      (await tech.post(`/api/connections/unmatched/${u.id}/assign`, { sample_id: sample, test_id: tests.BILT }))
        .statusCode,
    ).toBe(409);
    expect((await tech.get(`/api/connections/unmatched?connection_id=${c.id}`)).json().total).toBe(0);

    // The same transcript again: every value is refused (already entered) and can be discarded with a reason.
    await importFile(lab.database.db, row, fixture('astm_e1381_roche_cobas_c311.txt'));
    const again = (await tech.get(`/api/connections/unmatched?connection_id=${c.id}`)).json<{
      unmatched: Unmatched[];
      total: number;
    }>();
    expect(again.total).toBe(7);
    const noReason = await tech.post(`/api/connections/unmatched/${again.unmatched[0]!.id}/discard`, { reason: ' ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details[0].path).toBe('reason');
    const discarded = await tech.post(`/api/connections/unmatched/${again.unmatched[0]!.id}/discard`, {
      reason: 'Sent twice by the analyser',
    });
    expect(discarded.json().unmatched).toMatchObject({
      status: 'discarded',
      discard_reason: 'Sent twice by the analyser',
    });
    expect((await tech.get(`/api/connections/unmatched?connection_id=${c.id}`)).json().total).toBe(6);
    expect((await lab.admin.delete(`/api/connections/${c.id}`)).statusCode).toBe(409);
    // A frame with a broken checksum: the whole file is refused, nothing stored.
    const broken = Buffer.from(fixture('astm_e1381_roche_cobas_c311.txt'));
    broken[40] = 0x5a;
    expect((await importFile(lab.database.db, row, broken)).ok).toBe(false);
    expect((await lab.admin.get(`/api/connections/messages?connection_id=${c.id}`)).json().total).toBe(2);
  });

  it('NIST ORU over MLLP is answered AA; its unknown specimen waits in Unmatched; garbage is answered AR', async () => {
    const port = await freePort();
    const c = await createConnection({
      name: 'HL7 feed',
      protocol: 'hl7',
      transport: 'tcp-server',
      port,
      enabled: true,
      code_map: [{ code: '10368-9', test_id: tests.CHOL }],
    });
    await listening(c.id);
    const socket = net.connect({ port, host: '127.0.0.1' });
    const acks: string[] = [];
    const decoder = new MllpDecoder((b) => acks.push(b.toString('utf8')));
    socket.on('data', (d) => decoder.receive(d));
    await new Promise<void>((r) => socket.once('connect', r));
    socket.write(mllpWrap(fixture('hl7_ORU_R01_nist_2.5.1_case1.er7').toString('utf8')));
    socket.write(mllpWrap('this is not HL7'));
    await until('two ACKs', async () => acks.length === 2);
    socket.end();
    const aa = parseHl7(acks[0]!);
    expect(aa.get(aa.segment('MSA'), 1)).toBe('AA');
    expect(aa.get(aa.segment('MSA'), 2)).toBe('NIST-100929110701660');
    expect(aa.type).toBe('ACK^R01');
    const ar = parseHl7(acks[1]!);
    expect(ar.get(ar.segment('MSA'), 1)).toBe('AR');
    const log = (await lab.admin.get(`/api/connections/messages?connection_id=${c.id}`)).json<{
      messages: InterfaceMessage[];
    }>();
    expect(log.messages.map((m) => [m.status, m.ack])).toEqual([
      ['rejected', 'AR'],
      ['unmatched', 'AA'],
    ]);
    const u = (await lab.admin.get(`/api/connections/unmatched?connection_id=${c.id}`)).json<{
      unmatched: Unmatched[];
      total: number;
    }>();
    expect(u.unmatched[0]).toMatchObject({
      specimen_id: '9700123',
      code: '10368-9',
      value: '50',
      unit: 'ug/dL',
      flag: 'H',
      reason: 'unknown_sample',
    });
    await lab.admin.post(`/api/connections/${c.id}/disable`);
  });

  it('200 results in a burst over MLLP are all stored, each once (the 500-result ASTM burst is in interfaces-robust)', async () => {
    const port = await freePort();
    const codes = Array.from({ length: 10 }, (_, i) => `BT${i}`);
    const c = await createConnection({
      name: 'Burst',
      protocol: 'hl7',
      transport: 'tcp-server',
      port,
      enabled: true,
      code_map: codes.map((code) => ({ code, test_id: tests[code] })),
    });
    const samples: number[] = [];
    // Collected samples written straight in (the samples API is not what this measures).
    for (let s = 0; s < 20; s++) {
      const seeded = await seedSample(lab.database.db, lab.organizationId, {
        patientId: patient,
        testIds: codes.map((k) => tests[k]!),
        status: 'collected',
      });
      await lab.database.db
        .updateTable('samples')
        .set({ barcode: `BURST${String(s).padStart(3, '0')}` })
        .where('id', '=', seeded.id)
        .execute();
      samples.push(seeded.id);
    }
    await listening(c.id);
    const messages = samples.map((_, s) => {
      const obx = codes.map((code, i) => `OBX|${i + 1}|NM|${code}^Burst||${s + i}|mg/dL|0-100||||F`);
      return [
        `MSH|^~\\&|BURST|LAB|LIMS|LAB|20261126120000||ORU^R01|B${s}|P|2.5.1`,
        `OBR|1||BURST${String(s).padStart(3, '0')}`,
        ...obx,
      ].join('\r');
    });
    const socket = net.connect({ port, host: '127.0.0.1' });
    let acks = 0;
    const decoder = new MllpDecoder(() => (acks += 1));
    socket.on('data', (d) => decoder.receive(d));
    await new Promise<void>((r) => socket.once('connect', r));
    const started = Date.now();
    socket.write(Buffer.concat(messages.map(mllpWrap)));
    await until('20 ACKs', async () => acks === 20, 200_000);
    const seconds = (Date.now() - started) / 1000;
    socket.end();
    const stored = await lab.database.db
      .selectFrom('test_results')
      .select(['sample_id', 'test_id', 'result_value'])
      .where('sample_id', 'in', samples)
      .execute();
    expect(stored).toHaveLength(200);
    expect(new Set(stored.map((r) => `${r.sample_id}:${r.test_id}`)).size).toBe(200);
    const log = (await lab.admin.get(`/api/connections/messages?connection_id=${c.id}&status=processed`)).json();
    expect(log.total).toBe(20);
    console.info(`interfaces burst: 200 results in ${seconds.toFixed(1)} s (${Math.round(200 / seconds)} results/s)`);
  }, 240_000);
});
