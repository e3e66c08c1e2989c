import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelCosts } from '../../src/core/report-delivery/desk.js';
import { deliveryLab, newPatient, releasedReport, type DeliveryLab } from './report-delivery-support.js';

/** The costs per channel per month on Analytics count by the lab's calendar month, not UTC's. */
let d: DeliveryLab;

beforeAll(async () => {
  d = await deliveryLab();
  await d.lab.database.db
    .updateTable('organizations')
    .set({ timezone: 'Asia/Kolkata' })
    .where('id', '=', d.lab.organizationId)
    .execute();
});
afterAll(async () => {
  await d.lab.close();
});

describe('message costs by month', () => {
  it("count a message in the lab's month: 02:00 IST on the 1st is the new month, 23:30 IST on the 30th the old", async () => {
    const p = await newPatient(d);
    const { sample } = await releasedReport(d, p.id);
    const link = await d.lab.database.db
      .selectFrom('report_links')
      .select('id')
      .where('sample_id', '=', sample.id)
      .executeTakeFirstOrThrow();
    const row = (channel: 'sms' | 'whatsapp', sentAt: string, price: number) => ({
      organization_id: d.lab.organizationId,
      sample_id: sample.id,
      link_id: link.id,
      recipient_kind: 'patient' as const,
      channel,
      recipient: '9845012345',
      amended: 0,
      status: 'sent' as const,
      next_attempt_at: sentAt,
      created_at: sentAt,
      sent_at: sentAt,
      price_paise: price,
    });
    await d.lab.database.db
      .insertInto('report_deliveries')
      .values([
        row('sms', '2026-11-30T20:30:00.000Z', 25), // 1 Dec, 02:00 in India
        row('whatsapp', '2026-11-30T18:00:00.000Z', 80), // 30 Nov, 23:30 in India
        row('sms', '2026-10-31T18:30:00.000Z', 25), // 1 Nov, 00:00 in India
        row('sms', '2026-10-31T18:29:59.000Z', 25), // 31 Oct, 23:59:59 in India: before the months asked
      ])
      .execute();
    const costs = await channelCosts(d.lab.database.db, d.lab.organizationId, 2, new Date('2026-12-15T06:00:00Z'));
    expect(costs).toEqual([
      { month: '2026-11', channel: 'sms', messages: 1, cost: 0.25 },
      { month: '2026-11', channel: 'whatsapp', messages: 1, cost: 0.8 },
      { month: '2026-12', channel: 'sms', messages: 1, cost: 0.25 },
    ]);
    // On the 1st at 01:00 in India (still the 30th in UTC) the lab's month is already December.
    const early = await channelCosts(d.lab.database.db, d.lab.organizationId, 1, new Date('2026-11-30T19:30:00Z'));
    expect(early).toEqual([{ month: '2026-12', channel: 'sms', messages: 1, cost: 0.25 }]);
  });
});
