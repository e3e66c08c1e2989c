import { sql, type Expression, type Insertable, type SqlBool } from 'kysely';
import type { Db } from '../db/connection.js';
import type { DoctorProfilesTable } from './tables.js';
import type { DoctorListQuery, DoctorStatus } from '../../shared/schemas/doctors.js';
import { rowsByKeys } from '../db/dialect.js';
import { onPage, type RowsPage } from '../db/paging.js';

/**
 * Every query of Doctor Management over users (role doctor) and doctor_profiles, always filtered
 * by the lab. Bills are read through src/core/billing/referral-repository.ts.
 */

/** A doctor's status: users.is_active is the switch; the profile says why a doctor is not active. */
const STATUS_SQL = sql<DoctorStatus>`CASE
  WHEN u.is_active = 1 THEN 'active'
  WHEN u.suspended_at IS NOT NULL THEN 'suspended'
  WHEN p.status IN ('suspended', 'pending') THEN p.status
  ELSE 'inactive' END`;

/** An empty password hash means the account has no password: it cannot sign in. */
const CAN_SIGN_IN_SQL = sql<number>`CASE WHEN u.password_hash <> '' THEN 1 ELSE 0 END`;

function doctorsQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('users as u')
    .leftJoin('doctor_profiles as p', 'p.user_id', 'u.id')
    .where('u.organization_id', '=', organizationId)
    .where('u.role', '=', 'doctor');
}

type DoctorsQuery = ReturnType<typeof doctorsQuery>;

function selectDoctorColumns(q: DoctorsQuery) {
  return q.select([
    'u.id',
    'u.title',
    'u.first_name',
    'u.last_name',
    'u.email',
    'u.phone',
    'u.specialization',
    'u.consultation_fee_paise',
    'u.is_active',
    'u.suspended_at',
    'u.last_login',
    'u.created_at',
    'u.updated_at',
    'p.qualification',
    'p.experience_years',
    'p.registration_number',
    STATUS_SQL.as('status'),
    CAN_SIGN_IN_SQL.as('can_sign_in'),
  ]);
}

export type DoctorRow = Awaited<ReturnType<ReturnType<typeof selectDoctorColumns>['executeTakeFirstOrThrow']>>;

function applyFilters(q: DoctorsQuery, f: Pick<DoctorListQuery, 'search' | 'specialization' | 'status'>) {
  let out = q;
  if (f.search) {
    const s = `%${f.search.toLowerCase()}%`;
    out = out.where((eb) =>
      eb.or([
        eb(sql`lower(u.first_name || ' ' || u.last_name)`, 'like', s),
        eb(sql`lower(u.email)`, 'like', s),
        eb(sql`lower(coalesce(u.phone, ''))`, 'like', s),
        eb(sql`lower(coalesce(u.specialization, ''))`, 'like', s),
        eb(sql`lower(coalesce(p.qualification, ''))`, 'like', s),
        eb(sql`lower(coalesce(p.registration_number, ''))`, 'like', s),
      ]),
    );
  }
  if (f.specialization) {
    out = out.where(sql`lower(u.specialization)`, '=', f.specialization.toLowerCase());
  }
  if (f.status) out = out.where(sql<SqlBool>`${STATUS_SQL} = ${f.status}` as Expression<SqlBool>);
  return out;
}

/** One page of the lab's doctors (name order) and how many match. */
export async function selectDoctorPage(
  db: Db,
  organizationId: number,
  q: DoctorListQuery,
): Promise<RowsPage<DoctorRow>> {
  const filtered = applyFilters(doctorsQuery(db, organizationId), q);
  const { n } = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await selectDoctorColumns(filtered)
    .orderBy('u.first_name')
    .orderBy('u.last_name')
    .orderBy('u.id')
    .$call(onPage(q))
    .execute();
  return { rows, total: Number(n) };
}

export function findDoctorRow(db: Db, organizationId: number, id: number): Promise<DoctorRow | undefined> {
  return selectDoctorColumns(doctorsQuery(db, organizationId).where('u.id', '=', id)).executeTakeFirst();
}

/** The named doctors of this lab (for the analytics' names), by id. */
export async function doctorRowsByIds(db: Db, organizationId: number, ids: readonly number[]): Promise<DoctorRow[]> {
  if (ids.length === 0) return [];
  return selectDoctorColumns(doctorsQuery(db, organizationId).where('u.id', 'in', [...ids])).execute();
}

/** How many doctors have each status, and how many may sign in. */
export async function statusCounts(db: Db, organizationId: number) {
  const rows = await doctorsQuery(db, organizationId)
    .select([
      STATUS_SQL.as('status'),
      sql<number>`count(*)`.as('n'),
      sql<number>`coalesce(sum(${CAN_SIGN_IN_SQL}), 0)`.as('sign_in'),
    ])
    .groupBy(STATUS_SQL)
    .execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n), signIn: Number(r.sign_in) }));
}

/** Each specialization recorded on the lab's doctors (any status) and how many doctors have it. */
export async function specializationCounts(db: Db, organizationId: number) {
  const rows = await doctorsQuery(db, organizationId)
    .select(['u.specialization', sql<number>`count(*)`.as('n')])
    .groupBy('u.specialization')
    .execute();
  return rows.map((r) => ({ specialization: r.specialization, doctors: Number(r.n) }));
}

/** Creates the doctor's profile row, or replaces its fields. */
export async function saveProfile(trx: Db, values: Insertable<DoctorProfilesTable>): Promise<void> {
  await trx
    .insertInto('doctor_profiles')
    .values(values)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        qualification: values.qualification ?? null,
        experience_years: values.experience_years ?? null,
        registration_number: values.registration_number ?? null,
        status: values.status,
        updated_at: values.updated_at,
      }),
    )
    .execute();
}

/** The lab's doctors with these emails (lower case), by email: an import's look-up by natural key. */
export async function doctorRowsByEmails(
  db: Db,
  organizationId: number,
  emails: readonly string[],
): Promise<Map<string, DoctorRow>> {
  const rows = await rowsByKeys(emails, (some) =>
    selectDoctorColumns(doctorsQuery(db, organizationId).where('u.email', 'in', some)).execute(),
  );
  return new Map(rows.map((r) => [r.email.toLowerCase(), r]));
}

/** The lab's doctors with these first names (any case): a file naming a doctor without an email. */
export async function doctorRowsFirstNamed(
  db: Db,
  organizationId: number,
  firstNames: readonly string[],
): Promise<DoctorRow[]> {
  const names = [...new Set(firstNames.map((n) => n.toLowerCase()))];
  return rowsByKeys(names, (some) =>
    selectDoctorColumns(doctorsQuery(db, organizationId).where(sql<string>`lower(u.first_name)`, 'in', some)).execute(),
  );
}

/** Every doctor of the lab in name order, a page at a time (export). */
export function doctorRowsAfter(db: Db, organizationId: number, offset: number, limit: number): Promise<DoctorRow[]> {
  return selectDoctorColumns(doctorsQuery(db, organizationId))
    .orderBy('u.first_name')
    .orderBy('u.last_name')
    .orderBy('u.id')
    .limit(limit)
    .offset(offset)
    .execute();
}
