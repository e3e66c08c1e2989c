import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniquePhone } from './support.js';
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

/** One message per report: the link message replaces the portal's "report ready" notice for whoever gets it. */
let fake: FakeProviders;
let d: DeliveryLab;

beforeAll(async () => {
  fake = await fakeProviders();
  d = await sendingLab(fake);
  // The lab tells patients of ready reports (the default), by its SMS gateway.
  const s = await d.lab.admin.put('/api/settings', { reportNotifications: true });
  expect(s.statusCode, s.body).toBe(200);
});
afterAll(async () => {
  await d.lab.close();
  await fake.close();
});

const noticesTo = (phone: string) =>
  d.lab.database.db
    .selectFrom('outbox')
    .select(['channel', 'recipient'])
    .where('kind', '=', 'report_ready')
    .where('recipient', 'like', `%${phone}`)
    .execute();

describe('one message per report', () => {
  it('a patient sent the link is not sent the "report ready" notice as well', async () => {
    const phone = uniquePhone();
    const p = await newPatient(d, { phone });
    await consent(d, p.id, 'sms');
    const s = await releasedReport(d, p.id);
    expect((await ledger(d, s.sample.id)).map((r) => [r.channel, r.status])).toEqual([['sms', 'queued']]);
    expect(await noticesTo(phone)).toEqual([]);
  });

  it('a patient without consent for links still gets the notice', async () => {
    const phone = uniquePhone();
    const p = await newPatient(d, { phone });
    const s = await releasedReport(d, p.id);
    expect(await ledger(d, s.sample.id)).toEqual([]);
    expect((await noticesTo(phone)).map((n) => n.channel)).toEqual(['sms']);
  });

  it("with links off, or the patient's channel off, the notice goes", async () => {
    await saveSending(d, fake, { enabled: false });
    try {
      const phone = uniquePhone();
      const p = await newPatient(d, { phone });
      await consent(d, p.id, 'sms');
      await releasedReport(d, p.id);
      expect((await noticesTo(phone)).map((n) => n.channel)).toEqual(['sms']);
    } finally {
      await saveSending(d, fake);
    }
    await saveSending(d, fake, { sms_on: false, fallback_channel: 'none' });
    try {
      const phone = uniquePhone();
      const p = await newPatient(d, { phone });
      await consent(d, p.id, 'sms');
      const s = await releasedReport(d, p.id);
      expect(await ledger(d, s.sample.id)).toEqual([]);
      expect((await noticesTo(phone)).map((n) => n.channel)).toEqual(['sms']);
    } finally {
      await saveSending(d, fake);
    }
  });
});
