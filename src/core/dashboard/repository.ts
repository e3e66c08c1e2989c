import type { Db } from '../db/connection.js';
import type { Counts } from '../../shared/schemas/dashboard.js';
import { labTable } from '../db/lab-tables.js';

/** Counts for the dashboard and diagnostics screens (null: that module's tables are not there yet). */
export async function counts(db: Db, organizationId: number): Promise<Counts> {
  const patients = await labTable(db, 'entity_counts', organizationId)
    .select('n')
    .where('entity', '=', 'patients')
    .executeTakeFirst();
  const users = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('users'),
      eb.fn.sum<number>(eb.case().when('role', '=', 'doctor').then(1).else(0).end()).as('doctors'),
    ])
    .where('organization_id', '=', organizationId)
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  const count = async (table: 'tests' | 'test_profiles' | 'test_packages' | 'bills' | 'samples' | 'test_results') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('organization_id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    patients: patients?.n ?? 0,
    users: Number(users.users),
    doctors: Number(users.doctors ?? 0),
    tests: await count('tests'),
    test_profiles: await count('test_profiles'),
    test_packages: await count('test_packages'),
    samples: await count('samples'),
    test_results: await count('test_results'),
    bills: await count('bills'),
  };
}
