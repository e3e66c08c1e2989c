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

/** The lab's delivery settings: each channel on or off, holding until paid, secrets never answered. */
let fake: FakeProviders;
let d: DeliveryLab;

beforeAll(async () => {
  fake = await fakeProviders();
  d = await sendingLab(fake);
});
afterAll(async () => {
  await d.lab.close();
  await fake.close();
});

const settings = async () => {
  const res = await d.lab.admin.get('/api/report-delivery/settings');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().settings as Record<string, unknown>;
};

describe('report delivery settings', () => {
  it('answers that the token is saved, never the token, and keeps it when a save leaves it out', async () => {
    const s = await settings();
    expect(s).toMatchObject({ whatsapp_token_set: true, whatsapp_on: true, sms_on: true, email_on: true });
    expect(JSON.stringify(s)).not.toContain('EAAG-test-token');
    const { whatsapp_token_set: _t, whatsapp_app_secret_set: _a, whatsapp_verify_token_set: _v, ...body } = s;
    const again = await d.lab.admin.put('/api/report-delivery/settings', { ...body, link_days: 9 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().settings).toMatchObject({ link_days: 9, whatsapp_token_set: true });
    const audit = await d.lab.database.db
      .selectFrom('audit_log')
      .select(['new_values'])
      .where('entity', '=', 'report_delivery_settings')
      .execute();
    expect(JSON.stringify(audit)).not.toContain('EAAG-test-token');
    await saveSending(d, fake);
  });

  it('a channel switched off sends nothing on it: the patient who chose it gets the fallback', async () => {
    await saveSending(d, fake, { whatsapp_on: false });
    try {
      expect((await settings()).whatsapp_on).toBe(false);
      const phone = uniquePhone();
      const p = await newPatient(d, { phone });
      await consent(d, p.id, 'whatsapp');
      const s = await releasedReport(d, p.id);
      expect((await ledger(d, s.sample.id)).map((r) => r.channel)).toEqual(['sms']);
    } finally {
      await saveSending(d, fake, { whatsapp_on: true });
    }
    const p = await newPatient(d, { phone: uniquePhone() });
    await consent(d, p.id, 'whatsapp');
    const s = await releasedReport(d, p.id);
    expect((await ledger(d, s.sample.id)).map((r) => r.channel)).toEqual(['whatsapp']);
  });

  it('with SMS off too, a patient who chose SMS is not queued at all', async () => {
    await saveSending(d, fake, { sms_on: false });
    try {
      const p = await newPatient(d, { phone: uniquePhone() });
      await consent(d, p.id, 'sms');
      const s = await releasedReport(d, p.id);
      expect(await ledger(d, s.sample.id)).toEqual([]);
    } finally {
      await saveSending(d, fake, { sms_on: true });
    }
  });

  it('"hold until paid" is the lab\'s one switch: saved here, read by the portal and print too', async () => {
    await saveSending(d, fake, { hold_until_paid: true });
    try {
      expect((await settings()).hold_until_paid).toBe(true);
      const org = await d.lab.database.db
        .selectFrom('organizations')
        .select('settings')
        .where('id', '=', d.lab.organizationId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(org.settings).holdReportsUntilPaid).toBe(true);
      const p = await newPatient(d, { phone: uniquePhone() });
      await consent(d, p.id, 'sms');
      const bill = await d.lab.admin.post('/api/bills', {
        patient_id: p.id,
        items: [{ item_type: 'test', item_id: d.fbs }],
      });
      expect(bill.statusCode, bill.body).toBe(201);
      const s = await releasedReport(d, p.id, '95', { bill_id: bill.json().bill.id });
      expect((await ledger(d, s.sample.id)).map((r) => r.status)).toEqual(['held']);
    } finally {
      await saveSending(d, fake, { hold_until_paid: false });
    }
    expect((await settings()).hold_until_paid).toBe(false);
  });

  it('names the bad field', async () => {
    for (const [field, value] of [
      ['sms_on', 'yes'],
      ['hold_until_paid', 1],
      ['price_sms', -1],
      ['whatsapp_language', 'english'],
    ] as const) {
      const res = await d.lab.admin.put('/api/report-delivery/settings', {
        ...(await settings()),
        [field]: value,
      });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(res.json().details[0].path).toBe(field);
    }
  });
});
