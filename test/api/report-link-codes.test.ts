import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from './support.js';
import {
  consent,
  copiedToken,
  fakeProviders,
  newPatient,
  publicPost,
  releasedReport,
  saveSending,
  sendingLab,
  type DeliveryLab,
  type FakeProviders,
} from './report-delivery-support.js';

/** The link page's one-time code: by WhatsApp when the patient chose it, else SMS; limited per link and address. */
let fake: FakeProviders;
let d: DeliveryLab;

beforeAll(async () => {
  fake = await fakeProviders();
  d = await sendingLab(fake, { proof: 'otp', whatsapp_otp_template: 'lab_code' });
});
afterAll(async () => {
  await d.lab.close();
  await fake.close();
});

const sendCode = (token: string, ip = '203.0.113.20') => publicPost(d, '/api/report-link/code', { token }, ip);
const prove = (token: string, answer: string) => publicPost(d, '/api/report-link/prove', { token, answer });
const codesTo = (phone: string) =>
  fake.whatsapp
    .map(
      (h) =>
        JSON.parse(h.body) as {
          to: string;
          template: { name: string; components: { parameters: { text: string }[] }[] };
        },
    )
    .filter((b) => b.to === `91${phone}`);
const outboxTo = (phone: string) =>
  d.lab.database.db
    .selectFrom('outbox')
    .select(['channel', 'kind', 'body'])
    .where('kind', '=', 'report_link_code')
    .where('recipient', 'like', `%${phone}`)
    .execute();
/** Lets the next code go without waiting the minute between codes of a link (this lab's links only). */
const aMinuteLater = (token: string) =>
  d.lab.database.db
    .updateTable('report_links')
    .set({ otp_sent_at: '2000-01-01T00:00:00.000Z' })
    .where('organization_id', '=', d.lab.organizationId)
    .execute()
    .then(() => token);

async function linkFor(channel: string) {
  const phone = uniquePhone();
  const p = await newPatient(d, { phone });
  await consent(d, p.id, channel);
  const { sample } = await releasedReport(d, p.id);
  return { phone, token: await copiedToken(d, sample.id) };
}

describe('the code that opens a report link', () => {
  it('goes by the WhatsApp authentication template to a patient who chose WhatsApp, and opens the report', async () => {
    const { phone, token } = await linkFor('whatsapp');
    const res = await sendCode(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ channel: 'whatsapp', sent_to: `******${phone.slice(-4)}` });
    const sent = codesTo(phone);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.template.name).toBe('lab_code');
    const code = sent[0]!.template.components[0]!.parameters[0]!.text;
    expect(code).toMatch(/^\d{6}$/);
    expect(await outboxTo(phone)).toEqual([]);
    expect((await prove(token, code)).statusCode).toBe(200);
  });

  it('goes by SMS to a patient who chose SMS', async () => {
    const { phone, token } = await linkFor('sms');
    const res = await sendCode(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().channel).toBe('sms');
    expect(codesTo(phone)).toEqual([]);
    const texts = await outboxTo(phone);
    expect(texts).toHaveLength(1);
    const code = /(\d{6}) is your code/.exec(texts[0]!.body)![1]!;
    expect((await prove(token, code)).statusCode).toBe(200);
  });

  it('goes by SMS when WhatsApp refuses the number, or the lab has no code template', async () => {
    const { phone, token } = await linkFor('whatsapp');
    fake.whatsappRefuses.set(`91${phone}`, 400);
    const res = await sendCode(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().channel).toBe('sms');
    expect(await outboxTo(phone)).toHaveLength(1);

    await saveSending(d, fake, { proof: 'otp', whatsapp_otp_template: null });
    try {
      const other = await linkFor('whatsapp');
      expect((await sendCode(other.token)).json().channel).toBe('sms');
      expect(codesTo(other.phone)).toEqual([]);
    } finally {
      await saveSending(d, fake, { proof: 'otp', whatsapp_otp_template: 'lab_code' });
    }
  });

  it('is limited: one a minute per link, and 5 per link and address', async () => {
    const { token } = await linkFor('whatsapp');
    expect((await sendCode(token)).statusCode).toBe(200);
    const soon = await sendCode(token);
    expect(soon.statusCode).toBe(429);
    for (let i = 0; i < 4; i += 1) expect((await sendCode(await aMinuteLater(token))).statusCode).toBe(200);
    const sixth = await sendCode(await aMinuteLater(token));
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toMatch(/Too many codes/);
  });
});
