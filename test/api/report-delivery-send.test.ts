import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, sendDueDeliveries } from '../../src/core/report-delivery/sender.js';
import { uniqueEmail, uniquePhone } from './support.js';
import {
  APP_SECRET,
  consent,
  fakeProviders,
  ledger,
  newPatient,
  publicPost,
  releasedReport,
  saveSending,
  sendingLab,
  type DeliveryLab,
  type FakeProviders,
} from './report-delivery-support.js';

/** The channels and the ledger: the local fakes receive the link, webhooks move it on, failures fall back. */
let fake: FakeProviders;
let d: DeliveryLab;
const LOCAL = { allowPrivateOutbound: true };

beforeAll(async () => {
  fake = await fakeProviders();
  d = await sendingLab(fake);
});
afterAll(async () => {
  await d.lab.close();
  await fake.close();
});

const whatsappTo = (phone: string) =>
  fake.whatsapp.filter((h) => (JSON.parse(h.body) as { to: string }).to === `91${phone}`);
const smsTo = (phone: string) =>
  fake.sms.map((h) => new URL(h.url, 'http://x').searchParams).filter((q) => q.get('to') === phone);

function webhook(id: string, status: string, secret = APP_SECRET) {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      { id: '1', changes: [{ field: 'messages', value: { statuses: [{ id, status, timestamp: '1764740000' }] } }] },
    ],
  });
  return d.lab.app.inject({
    method: 'POST',
    url: `/api/report-delivery/webhooks/whatsapp/${d.lab.organizationId}`,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    payload: body,
  });
}

describe('report messages', () => {
  it('go by WhatsApp as a template carrying only the link, which opens the report; webhooks mark delivered and read', async () => {
    const phone = uniquePhone();
    const p = await newPatient(d, { phone });
    await consent(d, p.id, 'whatsapp');
    const s = await releasedReport(d, p.id, '95');
    const round = await sendDueDeliveries(d.lab.database.db, LOCAL);
    expect(round.sent).toBeGreaterThanOrEqual(1);
    const [hit] = whatsappTo(phone);
    expect(hit!.url).toBe('/wa/1098765/messages');
    expect(hit!.headers.authorization).toBe('Bearer EAAG-test-token');
    const sent = JSON.parse(hit!.body);
    expect(sent.template).toMatchObject({ name: 'report_ready', language: { code: 'en' } });
    const link = sent.template.components[0].parameters[0].text as string;
    expect(link).toMatch(/^https:\/\/lab\.example\.in\/report-link#L\d+\./);
    // The link is all the message carries: no test, value or sample.
    expect(sent.template.components).toEqual([{ type: 'body', parameters: [{ type: 'text', text: link }] }]);
    expect(hit!.body).not.toContain('Fasting');
    expect(hit!.body).not.toContain('mg/dL');
    expect(hit!.body).not.toContain(s.sample.sample_id);

    const [row] = await ledger(d, s.sample.id);
    expect(row).toMatchObject({ status: 'sent', channel: 'whatsapp', attempts: 1, price_paise: 80 });
    expect(row!.provider_id).toMatch(/^wamid\.fake/);
    expect(JSON.stringify(row)).not.toContain(new URL(link).hash.slice(1));
    // The patient opens what they were sent.
    const opened = await publicPost(d, '/api/report-link/open', { token: new URL(link).hash.slice(1) });
    expect(opened.statusCode, opened.body).toBe(200);

    const forged = await webhook(row!.provider_id!, 'read', 'not-the-secret');
    expect(forged.statusCode).toBe(401);
    expect((await ledger(d, s.sample.id))[0]!.status).toBe('sent');
    expect((await webhook(row!.provider_id!, 'delivered')).json()).toEqual({ updated: 1 });
    expect((await webhook(row!.provider_id!, 'read')).json()).toEqual({ updated: 1 });
    // A late "delivered" does not move it back.
    expect((await webhook(row!.provider_id!, 'delivered')).json()).toEqual({ updated: 0 });
    const after = (await ledger(d, s.sample.id))[0]!;
    expect(after.status).toBe('read');
    expect(after.delivered_at).toBeTruthy();
    expect(after.read_at).toBeTruthy();
  });

  it('fall back to SMS when WhatsApp refuses the number, and when WhatsApp reports a failure', async () => {
    const phone = uniquePhone();
    fake.whatsappRefuses.set(`91${phone}`, 400);
    const p = await newPatient(d, { phone });
    await consent(d, p.id, 'whatsapp');
    const s = await releasedReport(d, p.id);
    await sendDueDeliveries(d.lab.database.db, LOCAL);
    let rows = await ledger(d, s.sample.id);
    expect(rows.map((r) => [r.channel, r.status])).toEqual([
      ['whatsapp', 'failed'],
      ['sms', 'queued'],
    ]);
    expect(rows[0]!.last_error).toBe('The WhatsApp Cloud API answered HTTP 400');
    expect(rows[1]!.fallback_of).toBe(rows[0]!.id);
    await sendDueDeliveries(d.lab.database.db, LOCAL);
    rows = await ledger(d, s.sample.id);
    expect(rows[1]!.status).toBe('sent');
    const [text] = smsTo(phone);
    expect(text!.get('text')).toMatch(
      /^Test Lab: your lab report is ready\. Open it here: https:\/\/lab\.example\.in\/report-link#L/,
    );

    // Accepted, then reported failed by WhatsApp's webhook: SMS goes too.
    const other = uniquePhone();
    const q = await newPatient(d, { phone: other });
    await consent(d, q.id, 'whatsapp');
    const t = await releasedReport(d, q.id);
    await sendDueDeliveries(d.lab.database.db, LOCAL);
    const [wa] = await ledger(d, t.sample.id);
    expect((await webhook(wa!.provider_id!, 'failed')).json()).toEqual({ updated: 1 });
    expect((await ledger(d, t.sample.id)).map((r) => [r.channel, r.status])).toEqual([
      ['whatsapp', 'failed'],
      ['sms', 'queued'],
    ]);
  });

  it('retry a gateway failure with back-off, then fail', async () => {
    const phone = uniquePhone();
    const p = await newPatient(d, { phone });
    await consent(d, p.id, 'sms');
    const s = await releasedReport(d, p.id);
    fake.smsStatus.value = 503;
    try {
      const t0 = new Date(Date.now() + 1000);
      await sendDueDeliveries(d.lab.database.db, { ...LOCAL, now: t0 });
      let [row] = await ledger(d, s.sample.id);
      expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: 'The SMS gateway answered HTTP 503' });
      expect(Date.parse(row!.next_attempt_at) - t0.getTime()).toBe(RETRY_DELAYS_MS[0]);
      // Not due before its time.
      await sendDueDeliveries(d.lab.database.db, { ...LOCAL, now: new Date(t0.getTime() + 1000) });
      expect((await ledger(d, s.sample.id))[0]!.attempts).toBe(1);
      let at = t0.getTime();
      for (let i = 1; i < MAX_ATTEMPTS; i++) {
        at += RETRY_DELAYS_MS[i - 1]!;
        await sendDueDeliveries(d.lab.database.db, { ...LOCAL, now: new Date(at) });
      }
      [row] = await ledger(d, s.sample.id);
      expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
      expect(row!.last_error).not.toContain(phone);
    } finally {
      fake.smsStatus.value = 200;
    }
  });

  it('go by email with the link, or with the PDF attached when the lab says so', async () => {
    const { SMTPServer } = await import('smtp-server');
    const mails: { to: string; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo[0]!.address, raw: Buffer.concat(chunks).toString('utf8') });
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    try {
      const port = (smtp.server.address() as { port: number }).port;
      const saved = await d.lab.admin.put('/api/settings/email', {
        host: '127.0.0.1',
        port,
        security: 'none',
        fromAddress: 'reports@testlab.example',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const send = async (mode: 'link' | 'attach') => {
        await saveSending(d, fake, { email_mode: mode });
        const email = uniqueEmail('pt');
        const p = await newPatient(d, { phone: uniquePhone(), email });
        await consent(d, p.id, 'email');
        const s = await releasedReport(d, p.id, '95');
        await sendDueDeliveries(d.lab.database.db, LOCAL);
        expect((await ledger(d, s.sample.id)).map((r) => [r.channel, r.status])).toEqual([['email', 'sent']]);
        return mails.find((m) => m.to === email)!.raw;
      };
      const linked = await send('link');
      expect(linked).toContain('report-link#L');
      expect(linked).not.toContain('application/pdf');
      const attached = await send('attach');
      expect(attached).toContain('report-link#L');
      expect(attached).toMatch(/Content-Type: application\/pdf; name=report-/);
    } finally {
      await saveSending(d, fake);
      await new Promise<void>((r) => smtp.close(() => r()));
    }
  });

  it('are sent once with two senders on one database', async () => {
    const phones: string[] = [];
    for (let i = 0; i < 12; i++) {
      const phone = uniquePhone();
      phones.push(phone);
      const p = await newPatient(d, { phone });
      await consent(d, p.id, i % 2 ? 'sms' : 'whatsapp');
      await releasedReport(d, p.id);
    }
    const [a, b] = await Promise.all([
      sendDueDeliveries(d.lab.database.db, LOCAL),
      sendDueDeliveries(d.lab.database.db, LOCAL),
    ]);
    expect(a.sent + b.sent).toBeGreaterThanOrEqual(12);
    for (const [i, phone] of phones.entries())
      expect(i % 2 ? smsTo(phone).length : whatsappTo(phone).length, phone).toBe(1);
  });
});

describe('the front desk', () => {
  it("lists today's reports with who has not received theirs, sends again, and counts the cost per channel", async () => {
    const phone = uniquePhone();
    const p = await newPatient(d, { phone });
    await consent(d, p.id, 'sms');
    const s = await releasedReport(d, p.id);
    const desk = await d.desk.get('/api/report-delivery/desk?only=not_received');
    expect(desk.statusCode, desk.body).toBe(200);
    const mine = desk.json().reports.find((r: { sample_id: number }) => r.sample_id === s.sample.id);
    expect(mine).toMatchObject({ state: 'waiting', consent: true, channel: 'sms', version: 1 });
    expect(mine.deliveries[0].recipient).toBe(`******${phone.slice(-4)}`);

    await sendDueDeliveries(d.lab.database.db, LOCAL);
    const again = await d.desk.post(`/api/report-delivery/samples/${s.sample.id}/resend`, {});
    expect(again.statusCode, again.body).toBe(201);
    await sendDueDeliveries(d.lab.database.db, LOCAL);
    expect(smsTo(phone)).toHaveLength(2);
    const rows = await ledger(d, s.sample.id);
    expect(rows.map((r) => [r.status, r.requested_by])).toEqual([
      ['sent', null],
      ['sent', d.desk.userId],
    ]);
    // Opened by the patient: received.
    const link = new URL(smsTo(phone)[1]!.get('text')!.split(' ').pop()!).hash.slice(1);
    expect((await publicPost(d, '/api/report-link/prove', { token: link, answer: '1980' })).statusCode).toBe(200);
    const later = (await d.desk.get('/api/report-delivery/desk')).json();
    expect(later.reports.find((r: { sample_id: number }) => r.sample_id === s.sample.id).state).toBe('received');
    const notReceived = (await d.desk.get('/api/report-delivery/desk?only=not_received')).json();
    expect(notReceived.reports.some((r: { sample_id: number }) => r.sample_id === s.sample.id)).toBe(false);

    const costs = await d.lab.admin.get('/api/report-delivery/costs');
    expect(costs.statusCode, costs.body).toBe(200);
    const month = new Date().toISOString().slice(0, 7);
    const sms = costs
      .json()
      .costs.find((c: { month: string; channel: string }) => c.month === month && c.channel === 'sms');
    const sentSms = await d.lab.database.db
      .selectFrom('report_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel', '=', 'sms')
      .where('sent_at', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(sms).toEqual({ month, channel: 'sms', messages: Number(sentSms.n), cost: Number(sentSms.n) * 0.25 });
  });

  it('refuses to send again without consent, naming why', async () => {
    const p = await newPatient(d, { phone: uniquePhone() });
    const s = await releasedReport(d, p.id);
    const res = await d.desk.post(`/api/report-delivery/samples/${s.sample.id}/resend`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CANNOT_SEND');
    const bad = await d.desk.post(`/api/report-delivery/samples/${s.sample.id}/resend`, { channel: 'fax' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('channel');
  });
});
