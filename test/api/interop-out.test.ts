import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { auditRowsFor, badFields, otherLabAdmin, uniqueWord } from './support.js';
import type { TestResult } from '../../src/shared/schemas/results.js';
import type { Delivery, Receiver } from '../../src/shared/schemas/interop-out.js';
import { field, hl7Escape, hl7Unescape, parseHl7 } from '../../src/core/interop-out/hl7.js';
import { deliverDueReports } from '../../src/core/interop-out/delivery.js';
import { loincProblem } from '../../src/shared/loinc.js';
import { readStarterCatalogue } from '../../src/core/catalogue/starter.js';
import { checkR4Bundle } from './fhir-r4-structure.js';
import { validateR4 } from './fhir-r4-validator.js';
import { mllpReceiver } from './interface-support.js';

/**
 * Reports out ("Out"): the HL7 v2.5.1 ORU^R01 and FHIR R4 Bundle of a verified report
 * (values, units, flags, escaping), refused before verification, permissions as the report PDF,
 * another lab's sample unseen; receivers, and the push over MLLP (ACK) and HTTP with retries.
 */
/** The fake receivers listen on this machine: the lab is allowed there, as an operator would. */
const LOCAL = { allowPrivateOutbound: true };
let lab: TestLab;
let tech: Client;
let validator: Client;
const t = { glu: 0, hb: 0, note: 0 };

beforeAll(async () => {
  lab = await makeLab({ allowPrivateOutbound: true });
  const test = async (body: Record<string, unknown>) => {
    const res = await lab.admin.post('/api/tests', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().test as { id: number; loinc_code: string | null };
  };
  const glu = await test({
    name: 'Glucose Fasting',
    code: 'IOGLU',
    price: 90,
    unit: 'mg/dL',
    normal_range: '70-100',
    loinc_code: '1558-6',
  });
  expect(glu.loinc_code).toBe('1558-6');
  t.glu = glu.id;
  t.hb = (await test({ name: 'Haemoglobin', code: 'IOHB', price: 150, unit: 'g/dL', normal_range: '12-17' })).id;
  t.note = (
    await test({ name: 'Smear | A^B & C~D', code: 'IOPS', price: 200, result_type: 'text', normal_range: 'Normal' })
  ).id;
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
});
afterAll(() => lab.close());

async function patient(): Promise<number> {
  const res = await lab.admin.post('/api/patients', {
    first_name: uniqueWord('Io'),
    last_name: "D'Souza-Rao",
    date_of_birth: '1980-02-02',
    gender: 'Female',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().patient.id;
}

async function sampleWith(values: [number, string][]): Promise<{ id: number; code: string; results: TestResult[] }> {
  const res = await tech.post('/api/samples', {
    patient_id: await patient(),
    sample_type: 'Blood',
    test_ids: values.map(([id]) => id),
  });
  expect(res.statusCode, res.body).toBe(201);
  const s = res.json().sample;
  const results: TestResult[] = [];
  for (const [testId, value] of values) {
    const r = await tech.post('/api/test-results', { sample_id: s.id, test_id: testId, result_value: value });
    expect(r.statusCode, r.body).toBe(201);
    results.push(r.json().result);
  }
  return { id: s.id, code: s.sample_id, results };
}

async function verifyAll(results: TestResult[]) {
  for (const r of results) {
    const res = await validator.put(`/api/test-results/${r.id}/verify`, {});
    expect(res.statusCode, res.body).toBe(200);
  }
}

describe('LOINC codes on tests', () => {
  it('checks the form and the check digit; the starter catalogue ships only valid codes', async () => {
    expect(loincProblem('1558-6')).toBeNull();
    expect(loincProblem('718-7')).toBeNull();
    expect(loincProblem('1558-5')).toMatch(/check digit/);
    expect(loincProblem('LP1558')).toMatch(/look like/);
    for (const bad of ['1558-5', '15586', 'abc-1', '12345678-9']) {
      const res = await lab.admin.put(`/api/tests/${t.hb}`, { loinc_code: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(badFields(res)).toContain('loinc_code');
    }
    expect((await lab.admin.get(`/api/tests/${t.hb}`)).json().test.loinc_code).toBeNull();
    const ok = await lab.admin.put(`/api/tests/${t.hb}`, { loinc_code: ' 718-7 ' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().test.loinc_code).toBe('718-7');
    const starter = readStarterCatalogue();
    const coded = starter.tests.filter((s) => s.loinc_code);
    expect(coded.length).toBeGreaterThan(50);
    for (const s of coded) expect(loincProblem(s.loinc_code!), s.code).toBeNull();
    expect(starter.tests.find((s) => s.code === 'FBS')?.loinc_code).toBe('1558-6');
    expect(starter.tests.find((s) => s.code === 'HB')?.loinc_code).toBe('718-7');
  });

  it('the tests import template has the LOINC column', async () => {
    const res = await lab.admin.get('/api/data-jobs/templates/tests');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body.split(/\r?\n/)[0]).toContain('loinc_code');
  });
});

describe('the HL7 and FHIR messages of a verified report', () => {
  let s: { id: number; code: string; results: TestResult[] };
  beforeAll(async () => {
    s = await sampleWith([
      [t.glu, '126'],
      [t.hb, '10.5'],
      [t.note, 'Target cells | few & ~ ^ seen'],
    ]);
  });

  it('an unverified report is refused with 409, in both forms', async () => {
    for (const form of ['hl7', 'fhir']) {
      const res = await lab.admin.get(`/api/samples/${s.id}/${form}`);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('REPORT_NOT_VERIFIED');
    }
  });

  it('HL7 ORU^R01 parses back to the values, units, ranges, flags and escaped text', async () => {
    await verifyAll(s.results);
    const res = await lab.admin.get(`/api/samples/${s.id}/hl7`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/hl7-v2/);
    const segs = parseHl7(res.body);
    expect(segs.map((x) => x.name)).toEqual(['MSH', 'PID', 'ORC', 'OBR', 'OBX', 'OBX', 'OBX']);
    expect(res.body.split('\r').filter(Boolean)).toHaveLength(7);
    const msh = segs[0]!;
    expect(field(msh, 2)).toBe('^~\\&');
    expect(msh.fields[9]).toBe('ORU^R01^ORU_R01');
    expect(field(msh, 12)).toBe('2.5.1');
    expect(field(msh, 10)).toMatch(/^[0-9A-F]{20}$/);
    const pid = segs[1]!;
    expect(field(pid, 5, 1)).toBe("D'Souza-Rao");
    expect(field(pid, 7)).toBe('19800202');
    expect(field(pid, 8)).toBe('F');
    expect(field(segs[3], 25)).toBe('F');
    const [glu, hb, smear] = segs.slice(4);
    expect(glu!.fields[2]).toBe('NM');
    expect(glu!.fields[3]).toBe('1558-6^Glucose Fasting^LN^IOGLU^Glucose Fasting^L');
    expect(field(glu, 5)).toBe('126');
    expect(glu!.fields[6]).toBe('mg/dL^mg/dL^UCUM');
    expect(field(glu, 7)).toBe('70-100');
    expect(field(glu, 8)).toBe('H');
    expect(field(glu, 11)).toBe('F');
    expect(hb!.fields[3]).toBe('718-7^Haemoglobin^LN^IOHB^Haemoglobin^L');
    expect(field(hb, 5)).toBe('10.5');
    expect(field(hb, 8)).toBe('L');
    expect(smear!.fields[2]).toBe('ST');
    expect(field(smear, 3, 2)).toBe('Smear | A^B & C~D');
    expect(field(smear, 5)).toBe('Target cells | few & ~ ^ seen');
    expect(smear!.fields[5]).toBe('Target cells \\F\\ few \\T\\ \\R\\ \\S\\ seen');
    expect(field(smear, 8)).toBe('A');
  });

  it('escaping round-trips every delimiter and line breaks', () => {
    const text = 'a|b^c~d\\e&f\ng';
    expect(hl7Escape(text)).toBe('a\\F\\b\\S\\c\\R\\d\\E\\e\\T\\f\\.br\\g');
    expect(hl7Unescape(hl7Escape(text))).toBe(text);
  });

  it('the FHIR R4 Bundle holds the resources with LOINC, UCUM, ranges and interpretations', async () => {
    const res = await lab.admin.get(`/api/samples/${s.id}/fhir`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/fhir\+json/);
    const bundle = res.json();
    expect(checkR4Bundle(bundle)).toEqual([]);
    // Against the R4 StructureDefinitions too (Medplum's validator, offline).
    expect(await validateR4(bundle)).toEqual([]);
    expect(bundle.type).toBe('collection');
    const byType = (type: string) =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the Bundle's resources are read as plain JSON
      (bundle.entry as { resource: Record<string, any> }[])
        .map((e) => e.resource)
        .filter((r) => r.resourceType === type);
    expect(byType('Patient')).toHaveLength(1);
    expect(byType('Specimen')).toHaveLength(1);
    expect(byType('ServiceRequest')).toHaveLength(1);
    expect(byType('DiagnosticReport')).toHaveLength(1);
    const obs = byType('Observation');
    expect(obs).toHaveLength(3);
    const glu = obs.find((o) => o.code.text === 'Glucose Fasting')!;
    expect(glu.code.coding).toEqual([
      { system: 'http://loinc.org', code: '1558-6', display: 'Glucose Fasting' },
      expect.objectContaining({ code: 'IOGLU' }),
    ]);
    expect(glu.valueQuantity).toEqual({
      value: 126,
      unit: 'mg/dL',
      system: 'http://unitsofmeasure.org',
      code: 'mg/dL',
    });
    expect(glu.referenceRange[0].low.value).toBe(70);
    expect(glu.referenceRange[0].high.value).toBe(100);
    expect(glu.interpretation[0].coding[0].code).toBe('H');
    expect(glu.status).toBe('final');
    const hb = obs.find((o) => o.code.text === 'Haemoglobin')!;
    expect(hb.code.coding.map((c: { code: string }) => c.code)).toEqual(['718-7', 'IOHB']);
    expect(hb.valueQuantity.value).toBe(10.5);
    expect(hb.interpretation[0].coding[0].code).toBe('L');
    const smear = obs.find((o) => o.valueString)!;
    expect(smear.valueString).toBe('Target cells | few & ~ ^ seen');
    expect(smear.interpretation[0].coding[0].code).toBe('A');
    // The structural check itself finds what R4 refuses.
    const broken = structuredClone(bundle);
    const o = broken.entry.find(
      (e: { resource: { resourceType: string } }) => e.resource.resourceType === 'Observation',
    );
    delete o.resource.status;
    o.resource.valueString = 'two values';
    o.resource.subject = { reference: 'urn:uuid:00000000-0000-0000-0000-000000000000' };
    const problems = checkR4Bundle(broken).join('\n');
    expect(problems).toContain('status is required');
    expect(problems).toContain('value[x]');
    expect(problems).toContain('is not in the Bundle');
    // So does the R4 validator: it is no rubber stamp.
    const r4 = (await validateR4(broken)).join('\n');
    expect(r4).toMatch(/Bundle\.entry\[\d+\]\.resource\.status: Missing required property/);
    const typo = structuredClone(bundle);
    typo.entry.at(-1).resource.issuedAt = '2026-11-26T10:00:00Z';
    expect((await validateR4(typo)).join('\n')).toMatch(/Invalid additional property "issuedAt"/);
    const report = byType('DiagnosticReport')[0]!;
    expect(report.status).toBe('final');
    expect(report.result).toHaveLength(3);
    expect(byType('Patient')[0]!.name[0].family).toBe("D'Souza-Rao");
    expect(byType('Patient')[0]!.birthDate).toBe('1980-02-02');
  });

  it('permissions are those of the report PDF; another lab sees nothing', async () => {
    const collector = await lab.as('collector');
    expect((await collector.get(`/api/samples/${s.id}/hl7`)).statusCode).toBe(403);
    expect((await collector.get(`/api/samples/${s.id}/fhir`)).statusCode).toBe(403);
    expect((await validator.get(`/api/samples/${s.id}/fhir`)).statusCode).toBe(200);
    const doctor = await lab.as('doctor'); // not this patient's doctor
    expect((await doctor.get(`/api/samples/${s.id}/hl7`)).statusCode).toBe(404);
    const other = await otherLabAdmin(lab);
    expect((await other.admin.get(`/api/samples/${s.id}/hl7`)).statusCode).toBe(404);
    expect((await other.admin.get(`/api/samples/${s.id}/fhir`)).statusCode).toBe(404);
    expect((await lab.admin.get('/api/samples/999999/hl7')).statusCode).toBe(404);
  });
});

async function listen(server: TcpServer | HttpServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('receivers and delivery', () => {
  const servers: (TcpServer | HttpServer)[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('receivers are validated and need manage_lab; changes are audited', async () => {
    const bad = await lab.admin.post('/api/interop/receivers', { name: 'X', kind: 'mllp', host: 'bad host!' });
    expect(bad.statusCode).toBe(400);
    expect(badFields(bad)).toContain('host');
    const noPort = await lab.admin.post('/api/interop/receivers', { name: 'X', kind: 'mllp', host: '10.0.0.5' });
    expect(noPort.statusCode).toBe(400);
    expect(badFields(noPort)).toContain('port');
    const badUrl = await lab.admin.post('/api/interop/receivers', { name: 'X', kind: 'http', url: 'ftp://x' });
    expect(badFields(badUrl)).toContain('url');
    const noPayer = await lab.admin.post('/api/interop/receivers', {
      name: 'X',
      kind: 'http',
      url: 'http://127.0.0.1:1/fhir',
      payer_id: 999999,
    });
    expect(badFields(noPayer)).toContain('payer_id');
    expect((await lab.admin.get('/api/interop/receivers')).json().receivers).toHaveLength(0);
    expect((await validator.get('/api/interop/receivers')).statusCode).toBe(403);
    expect(
      (await validator.post('/api/interop/receivers', { name: 'Y', kind: 'http', url: 'http://x' })).statusCode,
    ).toBe(403);
  });

  it('a verified report is pushed over MLLP (retried after an AE, sent on AA) and over HTTP (retried after a 500)', async () => {
    const mllp = await mllpReceiver(['AE', 'AA']);
    servers.push(mllp.server);
    const mllpPort = mllp.port;
    const posted: string[] = [];
    const statuses = [500, 201];
    const http = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        posted.push(body);
        res.statusCode = statuses.shift() ?? 200;
        res.end('{}');
      });
    });
    servers.push(http);
    const httpPort = await listen(http);

    const a = await lab.admin.post('/api/interop/receivers', {
      name: 'City Hospital HIS',
      kind: 'mllp',
      host: '127.0.0.1',
      port: mllpPort,
    });
    expect(a.statusCode, a.body).toBe(201);
    const b = await lab.admin.post('/api/interop/receivers', {
      name: 'State FHIR',
      kind: 'http',
      url: `http://127.0.0.1:${httpPort}/fhir/Bundle`,
    });
    expect(b.statusCode, b.body).toBe(201);
    const off = await lab.admin.post('/api/interop/receivers', {
      name: 'Switched off',
      kind: 'http',
      url: `http://127.0.0.1:${httpPort}/off`,
      enabled: false,
    });
    expect(off.statusCode).toBe(201);
    const mllpId = a.json<{ receiver: Receiver }>().receiver.id;
    expect((await auditRowsFor(lab, 'interop_receiver', mllpId)).map((r) => r.action)).toEqual(['create']);

    const s = await sampleWith([[t.glu, '88']]);
    const before = await lab.admin.get('/api/interop/deliveries');
    expect(before.json().deliveries.filter((d: Delivery) => d.sample_id === s.id)).toHaveLength(0);
    await verifyAll(s.results);
    const queued = (await lab.admin.get('/api/interop/deliveries'))
      .json()
      .deliveries.filter((d: Delivery) => d.sample_id === s.id) as Delivery[];
    expect(queued.map((d) => d.receiver_name).sort()).toEqual(['City Hospital HIS', 'State FHIR']);
    expect(queued.every((d) => d.status === 'pending')).toBe(true);

    const first = await deliverDueReports(lab.database.db, { ...LOCAL, timeoutMs: 5000 });
    expect(first.map((e) => e.outcome).sort()).toEqual(['retry', 'retry']);
    expect(first.map((e) => e.code).sort()).toEqual(['ACK_AE', 'HTTP_500']);
    let log = (await lab.admin.get(`/api/interop/deliveries?receiver_id=${mllpId}`)).json().deliveries as Delivery[];
    expect(log[0]!.status).toBe('pending');
    expect(log[0]!.response).toBe('AE');
    expect(log[0]!.last_error).toContain('Patient not found');
    // Not yet due: the retry waits.
    expect(await deliverDueReports(lab.database.db, LOCAL)).toEqual([]);
    const later = new Date(Date.now() + 60 * 60_000);
    const second = await deliverDueReports(lab.database.db, { ...LOCAL, now: later, timeoutMs: 5000 });
    expect(second.map((e) => e.outcome)).toEqual(['sent', 'sent']);
    log = (await lab.admin.get(`/api/interop/deliveries?receiver_id=${mllpId}`)).json().deliveries as Delivery[];
    expect(log[0]!).toMatchObject({ status: 'sent', response: 'AA', attempts: 2, last_error: null });

    expect(mllp.received).toHaveLength(2);
    const obx = parseHl7(mllp.received[1]!).find((x) => x.name === 'OBX');
    expect(field(obx, 5)).toBe('88');
    expect(field(obx, 3)).toBe('1558-6');
    expect(posted).toHaveLength(2);
    const bundle = JSON.parse(posted[1]!);
    expect(checkR4Bundle(bundle)).toEqual([]);
    const obs = (bundle.entry as { resource: { resourceType: string; valueQuantity?: { value: number } } }[]).find(
      (e) => e.resource.resourceType === 'Observation',
    );
    expect(obs?.resource.valueQuantity?.value).toBe(88);

    let receivers = (await lab.admin.get('/api/interop/receivers')).json().receivers as Receiver[];
    expect(receivers.find((r) => r.id === mllpId)).toMatchObject({ sent: 1, waiting: 0, failed: 0 });

    // Amended after verification and verified again: a corrected report is queued and sent (OBX-11 C).
    const amend = await tech.put(`/api/test-results/${s.results[0]!.id}`, {
      result_value: '91',
      reason: 'Re-run on a fresh aliquot',
    });
    expect(amend.statusCode, amend.body).toBe(200);
    expect(await deliverDueReports(lab.database.db, { ...LOCAL, now: later, timeoutMs: 5000 })).toEqual([]);
    await verifyAll(s.results);
    const corrected = await deliverDueReports(lab.database.db, { ...LOCAL, now: later, timeoutMs: 5000 });
    expect(corrected.map((e) => e.outcome)).toEqual(['sent', 'sent']);
    expect(mllp.received).toHaveLength(3);
    const amendedObx = parseHl7(mllp.received[2]!).find((x) => x.name === 'OBX');
    expect([field(amendedObx, 5), field(amendedObx, 11)]).toEqual(['91', 'C']);
    expect(posted).toHaveLength(3);
    receivers = (await lab.admin.get('/api/interop/receivers')).json().receivers as Receiver[];
    expect(receivers.find((r) => r.id === mllpId)).toMatchObject({ sent: 2, waiting: 0, failed: 0 });
    // Nothing new to send: verifying nothing again queues nothing.
    expect(await deliverDueReports(lab.database.db, { ...LOCAL, now: later, timeoutMs: 5000 })).toEqual([]);
    expect(receivers.find((r) => r.name === 'Switched off')).toMatchObject({ sent: 0, waiting: 0, enabled: false });
  });

  it('a receiver that never answers fails after the last attempt and can be retried', async () => {
    const dead = createTcpServer((socket) => socket.destroy());
    servers.push(dead);
    const port = await listen(dead);
    const r = await lab.admin.post('/api/interop/receivers', {
      name: 'Dead end',
      kind: 'mllp',
      host: '127.0.0.1',
      port,
    });
    const id = r.json<{ receiver: Receiver }>().receiver.id;
    // Only this receiver gets the next report: the others are switched off.
    for (const other of (await lab.admin.get('/api/interop/receivers')).json().receivers as Receiver[])
      if (other.id !== id) await lab.admin.put(`/api/interop/receivers/${other.id}`, { enabled: false });
    const s = await sampleWith([[t.hb, '14']]);
    await verifyAll(s.results);
    let at = Date.now();
    for (let i = 0; i < 5; i++) {
      at += 2 * 60 * 60_000;
      await deliverDueReports(lab.database.db, { ...LOCAL, now: new Date(at), timeoutMs: 2000 });
    }
    const log = (await lab.admin.get(`/api/interop/deliveries?receiver_id=${id}`)).json().deliveries as Delivery[];
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 5 });
    expect(log[0]!.last_error).toMatch(/closed the connection|ECONNRESET/);
    expect((await validator.post(`/api/interop/deliveries/${log[0]!.id}/retry`, {})).statusCode).toBe(403);
    const retry = await lab.admin.post(`/api/interop/deliveries/${log[0]!.id}/retry`, {});
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().delivery).toMatchObject({ status: 'pending', attempts: 0 });
    expect((await lab.admin.post(`/api/interop/deliveries/${log[0]!.id}/retry`, {})).statusCode).toBe(409);
    const other = await otherLabAdmin(lab);
    expect((await other.admin.get('/api/interop/deliveries')).json().deliveries).toHaveLength(0);
    expect((await other.admin.post(`/api/interop/deliveries/${log[0]!.id}/retry`, {})).statusCode).toBe(404);
    expect((await other.admin.put(`/api/interop/receivers/${id}`, { enabled: false })).statusCode).toBe(404);
    const del = await lab.admin.delete(`/api/interop/receivers/${id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await auditRowsFor(lab, 'interop_receiver', id)).map((x) => x.action)).toContain('delete');
  });
});
