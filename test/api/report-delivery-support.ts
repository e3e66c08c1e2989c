/** A lab that sends reports by link, and the steps that release a report in it, for the report delivery tests. */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { uniqueWord } from './support.js';

export interface DeliveryLab {
  lab: TestLab;
  tech: Client;
  validator: Client;
  desk: Client;
  fbs: number;
}

export const LAB_PHONE = '0522 2257 540';

export const SETTINGS = {
  enabled: true,
  link_days: 7,
  proof: 'birth_year',
  send_to_doctors: false,
  email_mode: 'link',
  fallback_channel: 'sms',
  whatsapp_base_url: 'https://graph.facebook.com/v20.0',
  whatsapp_phone_number_id: null,
  whatsapp_template: null,
  whatsapp_language: 'en',
  price_whatsapp: 0.8,
  price_sms: 0.25,
  price_email: 0,
} as const;

export async function deliveryLab(opts: { allowPrivateOutbound?: boolean } = {}): Promise<DeliveryLab> {
  const lab = await makeLab({ publicRequestsPerMinute: 10_000, ...opts });
  await lab.database.db
    .updateTable('organizations')
    .set({ phone: LAB_PHONE })
    .where('id', '=', lab.organizationId)
    .execute();
  const res = await lab.admin.post('/api/tests', {
    name: 'Fasting Blood Sugar',
    code: 'FBS',
    price: 100,
    unit: 'mg/dL',
    normal_range: '70-110',
    reference_ranges: [{ range: '70-110', critical_low: 40, critical_high: 400 }],
  });
  expect(res.statusCode, res.body).toBe(201);
  const saved = await lab.admin.put('/api/report-delivery/settings', SETTINGS);
  expect(saved.statusCode, saved.body).toBe(200);
  return {
    lab,
    fbs: res.json().test.id as number,
    tech: await lab.as('lab_technician'),
    validator: await lab.as('validator'),
    desk: await lab.as('receptionist'),
  };
}

export async function newPatient(d: DeliveryLab, extra: Record<string, unknown> = {}) {
  const res = await d.lab.admin.post('/api/patients', {
    first_name: uniqueWord('Pm'),
    last_name: uniqueWord('Ql'),
    date_of_birth: '1980-03-01',
    gender: 'Female',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().patient.id as number, code: res.json().patient.patient_id as string };
}

/** A sample of one FBS test for the patient, its value entered (not verified). */
export async function sampleWithValue(
  d: DeliveryLab,
  patientId: number,
  value: string,
  extra: Record<string, unknown> = {},
) {
  const s = await d.lab.admin.post('/api/samples', {
    patient_id: patientId,
    sample_type: 'Blood',
    test_ids: [d.fbs],
    ...extra,
  });
  expect(s.statusCode, s.body).toBe(201);
  const sample = s.json().sample as { id: number; sample_id: string };
  const r = await d.tech.post('/api/test-results', { sample_id: sample.id, test_id: d.fbs, result_value: value });
  expect(r.statusCode, r.body).toBe(201);
  return { sample, resultId: r.json().result.id as number };
}

export async function verify(d: DeliveryLab, resultId: number) {
  const v = await d.validator.put(`/api/test-results/${resultId}/verify`);
  expect(v.statusCode, v.body).toBe(200);
}

/** A released report: a sample of the patient's with its value verified. */
export async function releasedReport(
  d: DeliveryLab,
  patientId: number,
  value = '95',
  extra: Record<string, unknown> = {},
) {
  const s = await sampleWithValue(d, patientId, value, extra);
  await verify(d, s.resultId);
  return s;
}

/** The token of a link the front desk copies for the sample. */
export async function copiedToken(d: DeliveryLab, sampleId: number): Promise<string> {
  const res = await d.desk.post(`/api/report-delivery/samples/${sampleId}/link`);
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json().url as string).hash.slice(1);
}

export function publicPost(
  d: DeliveryLab,
  url: string,
  payload: object,
  ip = '203.0.113.7',
): Promise<LightMyRequestResponse> {
  return d.lab.app.inject({ method: 'POST', url, payload, remoteAddress: ip });
}

/** A request a local fake provider received. */
export interface FakeHit {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A local stand-in for the WhatsApp Cloud API (POST /<phone id>/messages answering a wamid) and
 * for an SMS gateway (GET /send?to=&text=): what each received, and numbers each refuses.
 */
export interface FakeProviders {
  whatsappUrl: string;
  smsTemplate: string;
  whatsapp: FakeHit[];
  sms: FakeHit[];
  /** Numbers (digits as sent) WhatsApp refuses with this status. */
  whatsappRefuses: Map<string, number>;
  smsStatus: { value: number };
  close(): Promise<void>;
}

export async function fakeProviders(): Promise<FakeProviders> {
  const { createServer } = await import('node:http');
  const whatsapp: FakeHit[] = [];
  const sms: FakeHit[] = [];
  const whatsappRefuses = new Map<string, number>();
  const smsStatus = { value: 200 };
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const hit = { url: req.url ?? '', headers: req.headers, body };
      if ((req.url ?? '').startsWith('/wa/')) {
        whatsapp.push(hit);
        const to = (JSON.parse(body) as { to: string }).to;
        const refused = whatsappRefuses.get(to);
        if (refused) {
          res.writeHead(refused, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `(#131026) ${to} is not a WhatsApp user`, code: 131026 } }));
          return;
        }
        n += 1;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ messaging_product: 'whatsapp', messages: [{ id: `wamid.fake${n}` }] }));
        return;
      }
      sms.push(hit);
      res.writeHead(smsStatus.value, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    whatsappUrl: `http://127.0.0.1:${port}/wa`,
    smsTemplate: `http://127.0.0.1:${port}/send?to={to}&text={message}`,
    whatsapp,
    sms,
    whatsappRefuses,
    smsStatus,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export const APP_SECRET = 'meta-app-secret-5150';

/** The lab set up to send: WhatsApp at the fake, the fake SMS gateway, its public address. */
export async function sendingLab(fake: FakeProviders, over: Record<string, unknown> = {}): Promise<DeliveryLab> {
  const d = await deliveryLab({ allowPrivateOutbound: true });
  const sms = await d.lab.admin.put('/api/settings/sms', { method: 'GET', urlTemplate: fake.smsTemplate });
  expect(sms.statusCode, sms.body).toBe(200);
  const pub = await d.lab.admin.put('/api/lab-reports/settings', { public_url: 'https://lab.example.in' });
  expect(pub.statusCode, pub.body).toBe(200);
  await saveSending(d, fake, over);
  return d;
}

export async function saveSending(d: DeliveryLab, fake: FakeProviders, over: Record<string, unknown> = {}) {
  const res = await d.lab.admin.put('/api/report-delivery/settings', {
    ...SETTINGS,
    whatsapp_base_url: fake.whatsappUrl,
    whatsapp_phone_number_id: '1098765',
    whatsapp_token: 'EAAG-test-token',
    whatsapp_app_secret: APP_SECRET,
    whatsapp_template: 'report_ready',
    whatsapp_language: 'en',
    ...over,
  });
  expect(res.statusCode, res.body).toBe(200);
}

export async function consent(d: DeliveryLab, patientId: number, channel: string, extra: Record<string, unknown> = {}) {
  const res = await d.desk.put(`/api/patients/${patientId}/report-consent`, { channel, consent: true, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().consent;
}

export function ledger(d: DeliveryLab, sampleId: number) {
  return d.lab.database.db
    .selectFrom('report_deliveries')
    .selectAll()
    .where('sample_id', '=', sampleId)
    .orderBy('id')
    .execute();
}
