import type { Db } from '../../src/core/db/connection.js';
import { addDays } from '../../src/shared/time.js';
import type { TestLab } from '../helpers.js';

/** Registers the lab for GST in Karnataka (an address and a GSTIN), and gives a way to add its tests. */
export async function registerForGst(lab: TestLab) {
  const a = lab.admin;
  await a.put('/api/settings', { labAddress: '12 MG Road, Bengaluru, Karnataka 560001' });
  await a.put('/api/billing-settings', { gstin: '29AABCL1234M1Z5' });
  return async (body: object) => (await a.post('/api/tests', body)).json<{ test: { id: number } }>().test.id;
}

/** Moves a bill and its ledger rows by `ms` (value dates by whole days), as if made then; the rollups' triggers mark the days. */
export async function shiftBill(db: Db, billId: number, ms: number) {
  const shift = (iso: string) => new Date(Date.parse(iso) + ms).toISOString();
  const b = await db.selectFrom('bills').select(['created_at']).where('id', '=', billId).executeTakeFirstOrThrow();
  await db
    .updateTable('bills')
    .set({ created_at: shift(b.created_at) })
    .where('id', '=', billId)
    .execute();
  const days = Math.round(ms / 86_400_000);
  for (const p of await db
    .selectFrom('payments')
    .select(['id', 'created_at', 'value_date'])
    .where('bill_id', '=', billId)
    .execute())
    await db
      .updateTable('payments')
      .set({ created_at: shift(p.created_at), value_date: p.value_date ? addDays(p.value_date, days) : null })
      .where('id', '=', p.id)
      .execute();
}
