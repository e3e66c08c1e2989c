import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueDeliveries } from '../../src/core/report-delivery/sender.js';
import { uniquePhone } from './support.js';
import {
  consent,
  fakeProviders,
  ledger,
  newPatient,
  releasedReport,
  sampleWithValue,
  saveSending,
  sendingLab,
  verify,
  type DeliveryLab,
  type FakeProviders,
} from './report-delivery-support.js';

/** Consent per patient, and when a report goes: verified only, critical called, paid when held, amended again. */
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

describe('consent and channel per patient', () => {
  it('records who took the consent and when, keeps it through a withdrawal, and names bad fields', async () => {
    const p = await newPatient(d, { phone: uniquePhone() });
    const none = await d.desk.get(`/api/patients/${p.id}/report-consent`);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().consent).toMatchObject({ channel: 'none', consent: false, consent_at: null });

    const given = await consent(d, p.id, 'whatsapp', { recipient_phone: '98450 12345' });
    expect(given).toMatchObject({
      channel: 'whatsapp',
      consent: true,
      recipient_phone: '98450 12345',
      withdrawn_at: null,
    });
    expect(given.consent_at).toBeTruthy();
    expect(given.consent_by_name).toBeTruthy();

    const off = await d.desk.put(`/api/patients/${p.id}/report-consent`, { channel: 'whatsapp', consent: false });
    expect(off.json().consent).toMatchObject({ consent: false, consent_at: given.consent_at });
    expect(off.json().consent.withdrawn_at).toBeTruthy();

    const bad = await d.desk.put(`/api/patients/${p.id}/report-consent`, { channel: 'pigeon', consent: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('channel');
    const badPhone = await d.desk.put(`/api/patients/${p.id}/report-consent`, {
      channel: 'sms',
      consent: true,
      recipient_phone: 'call me',
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().details[0].path).toBe('recipient_phone');
    const stock = await d.lab.as('inventory_manager');
    expect(
      (await stock.put(`/api/patients/${p.id}/report-consent`, { channel: 'sms', consent: true })).statusCode,
    ).toBe(403);
  });
});

describe('when a report goes', () => {
  it('goes to the number the patient gave (a parent) once every test is verified, never before', async () => {
    const parent = uniquePhone();
    const p = await newPatient(d, { phone: uniquePhone() });
    await consent(d, p.id, 'whatsapp', { recipient_phone: parent });
    const s = await sampleWithValue(d, p.id, '95');
    expect(await ledger(d, s.sample.id)).toEqual([]);
    await verify(d, s.resultId);
    const rows = await ledger(d, s.sample.id);
    expect(rows.map((r) => [r.recipient_kind, r.channel, r.recipient, r.status, r.amended])).toEqual([
      ['patient', 'whatsapp', parent, 'queued', 0],
    ]);
  });

  it('sends nothing without consent, or after it was withdrawn', async () => {
    const p = await newPatient(d, { phone: uniquePhone() });
    const a = await releasedReport(d, p.id);
    expect(await ledger(d, a.sample.id)).toEqual([]);
    await consent(d, p.id, 'sms');
    await d.desk.put(`/api/patients/${p.id}/report-consent`, { channel: 'sms', consent: false });
    const b = await releasedReport(d, p.id);
    expect(await ledger(d, b.sample.id)).toEqual([]);
    const none = await newPatient(d, { phone: uniquePhone() });
    await consent(d, none.id, 'none');
    const c = await releasedReport(d, none.id);
    expect(await ledger(d, c.sample.id)).toEqual([]);
  });

  it('waits for the call of a critical value', async () => {
    const p = await newPatient(d, { phone: uniquePhone() });
    await consent(d, p.id, 'sms');
    const s = await releasedReport(d, p.id, '30');
    expect(await ledger(d, s.sample.id)).toEqual([]);
    const call = await d.validator.post(`/api/test-results/${s.resultId}/critical-call`, {
      called_to: 'Dr. Rao (physician)',
      read_back: true,
    });
    expect(call.statusCode, call.body).toBe(201);
    expect((await ledger(d, s.sample.id)).map((r) => r.status)).toEqual(['queued']);
  });

  it('is held while the bill has dues when the lab holds reports, and goes when the payment clears it', async () => {
    // The switch is kept with the lab's settings (System Settings has no field for it yet).
    const hold = async (on: boolean) => {
      const org = await d.lab.database.db
        .selectFrom('organizations')
        .select('settings')
        .where('id', '=', d.lab.organizationId)
        .executeTakeFirstOrThrow();
      await d.lab.database.db
        .updateTable('organizations')
        .set({ settings: JSON.stringify({ ...JSON.parse(org.settings || '{}'), holdReportsUntilPaid: on }) })
        .where('id', '=', d.lab.organizationId)
        .execute();
    };
    await hold(true);
    try {
      const phone = uniquePhone();
      const toPatient = () =>
        fake.sms.filter((h) => new URL(h.url, 'http://x').searchParams.get('to') === phone).length;
      const p = await newPatient(d, { phone });
      await consent(d, p.id, 'sms');
      const bill = await d.lab.admin.post('/api/bills', {
        patient_id: p.id,
        items: [{ item_type: 'test', item_id: d.fbs }],
      });
      expect(bill.statusCode, bill.body).toBe(201);
      const billId = bill.json().bill.id as number;
      const s = await releasedReport(d, p.id, '95', { bill_id: billId });
      expect((await ledger(d, s.sample.id)).map((r) => r.status)).toEqual(['held']);
      await sendDueDeliveries(d.lab.database.db, LOCAL);
      expect(toPatient()).toBe(0);

      const half = await d.lab.admin.post('/api/payments', { bill_id: billId, amount: 50, method: 'cash' });
      expect(half.statusCode, half.body).toBe(201);
      expect((await ledger(d, s.sample.id)).map((r) => r.status)).toEqual(['held']);
      const rest = await d.lab.admin.post('/api/payments', { bill_id: billId, amount: 50, method: 'cash' });
      expect(rest.statusCode, rest.body).toBe(201);
      expect((await ledger(d, s.sample.id)).map((r) => r.status)).toEqual(['queued']);
      await sendDueDeliveries(d.lab.database.db, LOCAL);
      expect((await ledger(d, s.sample.id)).map((r) => r.status)).toEqual(['sent']);
      expect(toPatient()).toBe(1);
    } finally {
      await hold(false);
    }
  });

  it('sends an amended report again, marked amended; the doctor gets theirs when the lab turns it on', async () => {
    await saveSending(d, fake, { send_to_doctors: true });
    try {
      const doctorPhone = uniquePhone();
      const doc = await d.lab.admin.post('/api/doctors', {
        first_name: 'Meena',
        last_name: 'Kulkarni',
        email: `meena.${doctorPhone}@clinic.test`,
        phone: doctorPhone,
      });
      expect(doc.statusCode, doc.body).toBe(201);
      const phone = uniquePhone();
      const p = await newPatient(d, { phone });
      await consent(d, p.id, 'sms');
      const bill = await d.lab.admin.post('/api/bills', {
        patient_id: p.id,
        doctor_id: doc.json().doctor.id,
        items: [{ item_type: 'test', item_id: d.fbs }],
      });
      expect(bill.statusCode, bill.body).toBe(201);
      const s = await releasedReport(d, p.id, '98', { bill_id: bill.json().bill.id });
      expect((await ledger(d, s.sample.id)).map((r) => [r.recipient_kind, r.channel, r.amended])).toEqual([
        ['patient', 'sms', 0],
        ['doctor', 'whatsapp', 0],
      ]);
      const amend = await d.tech.put(`/api/test-results/${s.resultId}`, {
        result_value: '189',
        reason: 'Keyed wrongly',
      });
      expect(amend.statusCode, amend.body).toBe(200);
      await verify(d, s.resultId);
      const rows = await ledger(d, s.sample.id);
      expect(rows.map((r) => [r.recipient_kind, r.amended])).toEqual([
        ['patient', 0],
        ['doctor', 0],
        ['patient', 1],
        ['doctor', 1],
      ]);
      const before = fake.sms.length;
      await sendDueDeliveries(d.lab.database.db, LOCAL);
      const texts = fake.sms
        .slice(before)
        .map((h) => new URL(h.url, 'http://x').searchParams)
        .filter((q) => q.get('to') === phone)
        .map((q) => q.get('text') ?? '');
      // The first version's messages did not leave: that report was replaced before they went.
      expect(texts).toHaveLength(1);
      expect(texts[0]).toContain('amended lab report');
      expect(texts[0]).not.toContain('189');
      const after = await ledger(d, s.sample.id);
      expect(after.map((r) => r.status)).toEqual(['failed', 'failed', 'sent', 'sent']);
      expect(after[0]!.last_error).toContain('amended');
    } finally {
      await saveSending(d, fake);
    }
  });
});
