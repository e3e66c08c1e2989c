import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { makeLab, type TestLab } from '../helpers.js';
import { insertOtherLab } from './support.js';

/**
 * The lab's patient count (entity_counts), which the register's unfiltered total reads, kept by
 * triggers: per row on SQLite, per statement on PostgreSQL (migration 34). Many patients in one
 * statement and one transaction, and a delete of several at once, leave it equal to the rows, lab by lab.
 */
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

async function counted(org: number): Promise<number> {
  const r = await lab.database.db
    .selectFrom('entity_counts')
    .select('n')
    .where('organization_id', '=', org)
    .where('entity', '=', 'patients')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
async function rows(org: number): Promise<number> {
  const r = await lab.database.db
    .selectFrom('patients')
    .select(sql<number>`count(*)`.as('n'))
    .where('organization_id', '=', org)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('the lab’s patient count', () => {
  it('follows multi-row inserts of two labs in one transaction and a delete of several rows', async () => {
    const db = lab.database.db;
    const mine = lab.organizationId;
    const other = await insertOtherLab(db);
    const before = [await counted(mine), await counted(other)];
    const patient = (org: number, i: number) => ({
      organization_id: org,
      patient_code: `PATC${org}${String(i).padStart(6, '0')}`,
      first_name: 'Count',
      last_name: `Test${i}`,
      gender: 'Female',
      date_of_birth: '1990-01-01',
      membership_type: 'none',
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    });
    await db.transaction().execute(async (trx) => {
      for (let k = 0; k < 3; k++) {
        const batch = Array.from({ length: 400 }, (_, i) => patient(mine, k * 400 + i));
        batch.push(patient(other, k));
        await trx.insertInto('patients').values(batch).execute();
      }
    });
    expect([await counted(mine), await counted(other)]).toEqual([before[0]! + 1200, before[1]! + 3]);
    await db.deleteFrom('patients').where('patient_code', 'like', `PATC${mine}0001%`).execute();
    expect(await counted(mine)).toBe(await rows(mine));
    expect(await counted(mine)).toBe(before[0]! + 1200 - 100);
    expect(await counted(other)).toBe(await rows(other));
    const listed = await lab.admin.get('/api/patients?page=1&limit=1');
    expect(listed.json().total).toBe(await rows(mine));
  });
});
