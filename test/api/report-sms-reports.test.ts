import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueDeliveries } from '../../src/core/report-delivery/sender.js';
import { uniqueEmail, uniquePhone } from './support.js';
import {
  consent,
  fakeProviders,
  ledger,
  newPatient,
  releasedReport,
  saveSending,
  sendingLab,
  type DeliveryLab,
  type FakeProviders,
} from './report-delivery-support.js';

/** The SMS gateway's delivery reports: authenticated by the lab's key, delivered or failed (then the fallback). */
let fake: FakeProviders;
let d: DeliveryLab;
const KEY = 'dlr-key-7f3a9c1e5b';
const LOCAL = { allowPrivateOutbound: true };

beforeAll(async () => {
  fake = await fakeProviders();
  d = await sendingLab(fake, { sms_report_key: KEY, fallback_channel: 'email' });
  const sms = await d.lab.admin.put('/api/settings/sms', {
    method: 'GET',
    urlTemplate: `${fake.smsTemplate}&ref={ref}`,
  });
  expect(sms.statusCode, sms.body).toBe(200);
  // A mail server saved is what makes email a channel the fallback can take; nothing is sent to it here.
  const mail = await d.lab.admin.put('/api/settings/email', {
    host: '127.0.0.1',
    port: 2525,
    security: 'none',
    fromAddress: 'reports@testlab.example',
  });
  expect(mail.statusCode, mail.body).toBe(200);
});
afterAll(async () => {
  await d.lab.close();
  await fake.close();
});

const report = (query: string, payload?: object | string, headers: Record<string, string> = {}) =>
  d.lab.app.inject({
    method: 'POST',
    url: `/api/report-delivery/webhooks/sms/${d.lab.organizationId}${query}`,
    headers:
      typeof payload === 'string' ? { 'content-type': 'application/x-www-form-urlencoded', ...headers } : headers,
    ...(payload === undefined ? {} : { payload }),
  });

async function sentBySms() {
  const phone = uniquePhone();
  const p = await newPatient(d, { phone, email: uniqueEmail('pt') });
  await consent(d, p.id, 'sms');
  const s = await releasedReport(d, p.id);
  await sendDueDeliveries(d.lab.database.db, LOCAL);
  const [row] = await ledger(d, s.sample.id);
  expect(row).toMatchObject({ channel: 'sms', status: 'sent', provider_id: `rd${row!.id}` });
  const hit = fake.sms.find((h) => new URL(h.url, 'http://x').searchParams.get('to') === phone)!;
  expect(new URL(hit.url, 'http://x').searchParams.get('ref')).toBe(`rd${row!.id}`);
  return { sampleId: s.sample.id, ref: `rd${row!.id}` };
}

describe('SMS delivery reports', () => {
  it('mark the message delivered (a form body, the key in a header); the key is never answered', async () => {
    const { sampleId, ref } = await sentBySms();
    const res = await report('', `ref=${ref}&status=DELIVRD`, { 'x-lims-key': KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ updated: 1 });
    const [row] = await ledger(d, sampleId);
    expect(row!.status).toBe('delivered');
    expect(row!.delivered_at).toBeTruthy();
    const settings = (await d.lab.admin.get('/api/report-delivery/settings')).json().settings;
    expect(settings.sms_report_key_set).toBe(true);
    expect(JSON.stringify(settings)).not.toContain(KEY);
  });

  it('a failed one fails the row and queues the fallback channel (key and fields in the address)', async () => {
    const { sampleId, ref } = await sentBySms();
    const res = await report(`?key=${KEY}&ref=${ref}&status=UNDELIV`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = await ledger(d, sampleId);
    expect(rows.map((r) => [r.channel, r.status])).toEqual([
      ['sms', 'failed'],
      ['email', 'queued'],
    ]);
    expect(rows[1]!.fallback_of).toBe(rows[0]!.id);
    // A late "delivered" does not bring a failed row back.
    expect((await report(`?key=${KEY}`, { ref, status: 'delivered' })).json()).toEqual({ updated: 0 });
  });

  it("refuses a report without the lab's key, and changes nothing", async () => {
    const { sampleId, ref } = await sentBySms();
    expect((await report('', { ref, status: 'delivered' })).statusCode).toBe(401);
    expect((await report('?key=wrong-key-123456789', { ref, status: 'delivered' })).statusCode).toBe(401);
    expect((await ledger(d, sampleId))[0]!.status).toBe('sent');
    // Words that are not final (accepted, buffered) change nothing either.
    expect((await report(`?key=${KEY}`, { ref, status: 'ACCEPTD' })).json()).toEqual({ updated: 0 });
    await saveSending(d, fake, { sms_report_key: null, fallback_channel: 'email' });
    try {
      expect((await report(`?key=${KEY}`, { ref, status: 'delivered' })).statusCode).toBe(404);
    } finally {
      await saveSending(d, fake, { sms_report_key: KEY, fallback_channel: 'email' });
    }
  });

  it('names a bad key when it is saved, and keeps the saved one for an empty field', async () => {
    const res = await d.lab.admin.put('/api/report-delivery/settings', {
      ...(await d.lab.admin.get('/api/report-delivery/settings')).json().settings,
      sms_report_key: 'short',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('sms_report_key');
    // An empty field is "unchanged", as for every secret: the saved key stays.
    const kept = await d.lab.admin.put('/api/report-delivery/settings', {
      ...(await d.lab.admin.get('/api/report-delivery/settings')).json().settings,
      sms_report_key: '',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().settings.sms_report_key_set).toBe(true);
  });
});
