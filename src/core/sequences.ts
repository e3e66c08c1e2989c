import type { Db } from './db/connection.js';

/** Next value of a named per-organisation counter; call inside the write transaction that uses it. */
export async function nextSequence(trx: Db, organizationId: number, name: string): Promise<number> {
  const row = await trx
    .insertInto('sequences')
    .values({ organization_id: organizationId, name, value: 1 })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'name']).doUpdateSet((eb) => ({ value: eb('sequences.value', '+', 1) })),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}
