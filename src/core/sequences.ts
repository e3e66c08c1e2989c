import { sql } from 'kysely';
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

/** Takes `count` values of a counter at once; answers the last (the values are last-count+1 .. last). */
export async function reserveSequence(trx: Db, organizationId: number, name: string, count: number): Promise<number> {
  const row = await trx
    .insertInto('sequences')
    .values({ organization_id: organizationId, name, value: count })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'name']).doUpdateSet((eb) => ({ value: eb('sequences.value', '+', count) })),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}

/**
 * Makes sure a counter stands at `atLeast` or more: a number taken from elsewhere (an imported
 * patient code, bill number) is never handed out again by nextSequence.
 */
export async function raiseSequence(trx: Db, organizationId: number, name: string, atLeast: number): Promise<void> {
  await trx
    .insertInto('sequences')
    .values({ organization_id: organizationId, name, value: atLeast })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'name']).doUpdateSet({
        value: sql<number>`CASE WHEN sequences.value < ${atLeast} THEN ${atLeast} ELSE sequences.value END`,
      }),
    )
    .execute();
}
