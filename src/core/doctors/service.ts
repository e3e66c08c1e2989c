import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { diff, writeAudit } from '../audit/audit.js';
import { hashPassword, endSessionsOfUser } from '../auth/service.js';
import { assertPasswordPolicy, organizationTimezone } from '../settings/service.js';
import { isForeignKeyViolation } from '../db/dialect.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { deleteUserRow, emailTaken, insertUserRow, updateUserRow } from '../users/repository.js';
import { listUsers } from '../users/service.js';
import {
  countBillsOfDoctor,
  referralCountsOf,
  referralFigures,
  type UtcRange,
} from '../billing/referral-repository.js';
import {
  doctorRowsByIds,
  findDoctorRow,
  saveProfile,
  selectDoctorPage,
  specializationCounts,
  statusCounts,
  type DoctorRow,
} from './repository.js';
import { doctorAuditValues, doctorName, toDoctor } from './mappers.js';
import { DOCTOR_ROLES } from '../../shared/roles.js';
import { SPECIALIZATIONS } from '../../shared/constants.js';
import { statusTally } from '../../shared/status-tally.js';
import { rupeesToPaise } from '../../shared/money.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  NO_EMAIL_DOMAIN,
  isNoEmailPlaceholder,
  type Doctor,
  type DoctorAnalytics,
  type DoctorAnalyticsQuery,
  type DoctorCreate,
  type DoctorListQuery,
  type DoctorPage,
  type DoctorSummary,
  type DoctorUpdate,
} from '../../shared/schemas/doctors.js';
import type { User } from '../../shared/schemas/users.js';
import { moveTitleOutOfFirstName } from '../../shared/person-name.js';

/** The address a doctor without an email keeps (users.email is NOT NULL UNIQUE): never deliverable. */
const placeholderEmail = (id: number | string) => `doctor-${id}@${NO_EMAIL_DOMAIN}`;

/** "cardiology" is stored as the common list spells it ("Cardiology"), so filters and groups agree. */
function canonicalSpecialization(s: string | null | undefined): string | null {
  if (!s) return null;
  return SPECIALIZATIONS.find((c) => c.toLowerCase() === s.toLowerCase()) ?? s;
}

async function withReferrals(db: Db, organizationId: number, rows: DoctorRow[]): Promise<Doctor[]> {
  const counts = await referralCountsOf(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toDoctor(r, counts.get(r.id)));
}

async function requireDoctor(db: Db, organizationId: number, id: number): Promise<DoctorRow> {
  const row = await findDoctorRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Doctor', id);
  return row;
}

export async function listDoctors(db: Db, organizationId: number, q: DoctorListQuery): Promise<DoctorPage> {
  const { rows, total } = await selectDoctorPage(db, organizationId, q);
  return { doctors: await withReferrals(db, organizationId, rows), ...pageEnvelope(total, q.page, q.limit) };
}

export async function getDoctor(db: Db, organizationId: number, id: number): Promise<Doctor> {
  const [doctor] = await withReferrals(db, organizationId, [await requireDoctor(db, organizationId, id)]);
  return doctor!;
}

/** The OP Bill doctor picker (spec 2.8 / 6): active doctors and lab technicians, as users. */
export function doctorOptions(db: Db, organizationId: number): Promise<User[]> {
  return listUsers(db, organizationId, { roles: DOCTOR_ROLES });
}

/** The lab's calendar days from..to (inclusive) as a UTC range of bill creation times. */
function dayRange(timeZone: string, from: string, to: string): UtcRange {
  return {
    fromUtc: startOfLocalDayUtc(timeZone, from).toISOString(),
    toUtc: startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString(),
  };
}

export async function doctorSummary(db: Db, organizationId: number): Promise<DoctorSummary> {
  const timeZone = await organizationTimezone(db, organizationId);
  const today = localDate(timeZone);
  const monthStart = `${today.slice(0, 8)}01`;
  const statuses = await statusCounts(db, organizationId);
  const specs = (await specializationCounts(db, organizationId))
    .filter((s): s is { specialization: string; doctors: number } => s.specialization !== null)
    .sort((a, b) => b.doctors - a.doctors || a.specialization.localeCompare(b.specialization));
  const [month] = await referralFigures(db, organizationId, dayRange(timeZone, monthStart, today), 'all');
  return {
    ...statusTally(statuses, ['active', 'inactive', 'suspended', 'pending']),
    can_sign_in: statuses.reduce((n, r) => n + r.signIn, 0),
    specializations: specs,
    referrals_this_month: month?.referrals ?? 0,
    month_start: monthStart,
  };
}

/** Top doctors, totals and the specialization distribution from the non-cancelled bills of a date range. */
export async function doctorAnalytics(
  db: Db,
  organizationId: number,
  q: DoctorAnalyticsQuery,
): Promise<DoctorAnalytics> {
  const timeZone = await organizationTimezone(db, organizationId);
  const today = localDate(timeZone);
  const to = q.to ?? today;
  const from = q.from ?? (q.to ? `${q.to.slice(0, 8)}01` : `${today.slice(0, 8)}01`);
  if (from > to) throw ValidationError.field('from', 'from must not be after to');
  const range = dayRange(timeZone, from, to);

  const [all] = await referralFigures(db, organizationId, range, 'all');
  const byDoctor = await referralFigures(db, organizationId, range, 'doctor');
  const top = [...byDoctor]
    .sort((a, b) => b.revenue_paise - a.revenue_paise || b.referrals - a.referrals || Number(a.key) - Number(b.key))
    .slice(0, q.limit);
  const names = new Map(
    (
      await doctorRowsByIds(
        db,
        organizationId,
        top.map((t) => Number(t.key)),
      )
    ).map((r) => [r.id, r]),
  );
  const bySpec = new Map(
    (await referralFigures(db, organizationId, range, 'specialization')).map((r) => [r.key, r] as const),
  );
  const doctorsPerSpec = await specializationCounts(db, organizationId);

  const money = (paise: number) => paise / 100;
  return {
    from,
    to,
    totals: {
      referrals: all?.referrals ?? 0,
      patients: all?.patients ?? 0,
      tests: all?.tests ?? 0,
      revenue: money(all?.revenue_paise ?? 0),
      doctors: byDoctor.length,
    },
    top_doctors: top.map((t) => {
      const d = names.get(Number(t.key));
      return {
        id: Number(t.key),
        first_name: d?.first_name ?? '',
        last_name: d?.last_name ?? '',
        specialization: d?.specialization ?? null,
        referrals: t.referrals,
        patients: t.patients,
        tests: t.tests,
        revenue: money(t.revenue_paise),
      };
    }),
    specializations: doctorsPerSpec
      .map((s) => {
        const f = bySpec.get(s.specialization);
        return {
          specialization: s.specialization,
          doctors: s.doctors,
          referrals: f?.referrals ?? 0,
          patients: f?.patients ?? 0,
          tests: f?.tests ?? 0,
          revenue: money(f?.revenue_paise ?? 0),
        };
      })
      .sort((a, b) => b.revenue - a.revenue || b.referrals - a.referrals || b.doctors - a.doctors),
  };
}

export async function createDoctor(db: Db, actor: Actor, input: DoctorCreate): Promise<Doctor> {
  if (input.can_sign_in && input.password)
    await assertPasswordPolicy(db, actor.organizationId, input.password, {
      email: input.email ?? undefined,
      name: `${input.first_name} ${input.last_name}`,
    });
  const passwordHash = input.can_sign_in && input.password ? await hashPassword(input.password) : '';
  const id = await db.transaction().execute((trx) => insertDoctor(trx, actor, input, passwordHash));
  return getDoctor(db, actor.organizationId, id);
}

/** Inside an open transaction: the doctor's user row and profile, audited (an import adds many). Answers the id. */
export async function insertDoctor(trx: Db, actor: Actor, given: DoctorCreate, passwordHash: string): Promise<number> {
  const input = moveTitleOutOfFirstName(given);
  if (input.email && (await emailTaken(trx, actor.organizationId, input.email)))
    throw new ConflictError(`A user with email ${input.email} already exists`, 'EMAIL_TAKEN');
  const now = nowIso();
  const user = await insertUserRow(trx, {
    organization_id: actor.organizationId,
    // Without an email the row first takes a unique stand-in, then the one named after its id.
    email: input.email ?? placeholderEmail(`new-${randomUUID()}`),
    password_hash: passwordHash,
    title: input.title ?? null,
    first_name: input.first_name,
    last_name: input.last_name,
    role: 'doctor',
    department: null,
    phone: input.phone ?? null,
    specialization: canonicalSpecialization(input.specialization),
    consultation_fee_paise: rupeesToPaise(input.consultation_fee ?? 0),
    is_active: input.status === 'active' ? 1 : 0,
    created_at: now,
    updated_at: now,
  });
  if (!input.email) await updateUserRow(trx, user.id, { email: placeholderEmail(user.id) });
  await saveProfile(trx, {
    user_id: user.id,
    organization_id: actor.organizationId,
    qualification: input.qualification ?? null,
    experience_years: input.experience_years ?? null,
    registration_number: input.registration_number ?? null,
    status: input.status,
    created_at: now,
    updated_at: now,
  });
  const created = await requireDoctor(trx, actor.organizationId, user.id);
  await writeAudit(trx, actor, {
    action: 'create',
    entity: 'doctor',
    entityId: user.id,
    newValues: doctorAuditValues(toDoctor(created)),
  });
  return user.id;
}

export async function updateDoctor(db: Db, actor: Actor, id: number, input: DoctorUpdate): Promise<Doctor> {
  if (input.password)
    await assertPasswordPolicy(db, actor.organizationId, input.password, {
      email: input.email ?? undefined,
      name: [input.first_name, input.last_name].filter(Boolean).join(' ') || undefined,
    });
  const newHash = input.password ? await hashPassword(input.password) : null;
  await db.transaction().execute((trx) => applyDoctorUpdate(trx, actor, id, input, newHash));
  return getDoctor(db, actor.organizationId, id);
}

/** Inside an open transaction: changes the given fields of a doctor (newHash: a new password's hash), audited. */
export async function applyDoctorUpdate(
  trx: Db,
  actor: Actor,
  id: number,
  given: DoctorUpdate,
  newHash: string | null,
): Promise<void> {
  const input = moveTitleOutOfFirstName(given);
  const before = await requireDoctor(trx, actor.organizationId, id);
  const email = input.email === undefined ? before.email : (input.email ?? placeholderEmail(id));
  const hasEmail = !isNoEmailPlaceholder(email);
  const couldSignIn = before.can_sign_in === 1;
  const canSignIn = input.can_sign_in ?? couldSignIn;
  if (canSignIn && !hasEmail) throw ValidationError.field('email', 'An email is required for a doctor who signs in');
  if (canSignIn && !couldSignIn && !newHash)
    throw ValidationError.field('password', 'Set a password for a doctor who signs in');
  if (!canSignIn && newHash)
    throw ValidationError.field('password', 'A password is only set for a doctor who signs in (tick "May sign in")');
  if (hasEmail && email !== before.email && (await emailTaken(trx, actor.organizationId, email, id)))
    throw new ConflictError(`A user with email ${email} already exists`, 'EMAIL_TAKEN');

  const status = input.status ?? before.status;
  const now = nowIso();
  await updateUserRow(trx, id, {
    ...(input.title !== undefined && { title: input.title ?? null }),
    ...(input.first_name !== undefined && { first_name: input.first_name }),
    ...(input.last_name !== undefined && { last_name: input.last_name }),
    email,
    ...(input.phone !== undefined && { phone: input.phone ?? null }),
    ...(input.specialization !== undefined && { specialization: canonicalSpecialization(input.specialization) }),
    ...(input.consultation_fee !== undefined && { consultation_fee_paise: rupeesToPaise(input.consultation_fee) }),
    ...(newHash ? { password_hash: newHash } : !canSignIn ? { password_hash: '' } : {}),
    is_active: status === 'active' ? 1 : 0,
    // The Users screen's suspension and this status agree: suspended here is suspended there.
    ...(status === 'suspended'
      ? { suspended_at: before.suspended_at ?? now }
      : { suspended_at: null, suspended_reason: null }),
    updated_at: now,
  });
  await saveProfile(trx, {
    user_id: id,
    organization_id: actor.organizationId,
    qualification: input.qualification === undefined ? before.qualification : (input.qualification ?? null),
    experience_years: input.experience_years === undefined ? before.experience_years : (input.experience_years ?? null),
    registration_number:
      input.registration_number === undefined ? before.registration_number : (input.registration_number ?? null),
    status,
    created_at: now,
    updated_at: now,
  });
  // A doctor who is no longer active, may no longer sign in, or has a new password signs in again (or not at all).
  if ((before.status === 'active' && status !== 'active') || (couldSignIn && !canSignIn) || newHash) {
    await endSessionsOfUser(trx, id);
  }
  const after = await requireDoctor(trx, actor.organizationId, id);
  const { oldValues, newValues } = diff(doctorAuditValues(toDoctor(before)), doctorAuditValues(toDoctor(after)));
  if (newHash) newValues.password_changed = true;
  await writeAudit(trx, actor, { action: 'update', entity: 'doctor', entityId: id, oldValues, newValues });
}

/**
 * Erases a doctor nothing refers to (a referring doctor added by mistake). A doctor named on a bill
 * (cancelled or not) is kept for the record: 409, deactivate instead. Any other record naming the
 * account (a visit, a result they entered) is refused by the database's foreign keys: 409 as well.
 * The audit trail keeps its rows (they carry the email) and records the deletion with the last values.
 */
export async function deleteDoctor(db: Db, actor: Actor, id: number): Promise<Doctor> {
  const doctor = await getDoctor(db, actor.organizationId, id);
  const name = doctorName(doctor);
  const bills = await countBillsOfDoctor(db, actor.organizationId, id);
  if (bills > 0) {
    throw new ConflictError(
      `${name} is named on ${bills} bill${bills === 1 ? '' : 's'} and cannot be deleted; deactivate the doctor instead`,
      'DOCTOR_HAS_BILLS',
    );
  }
  try {
    await db.transaction().execute(async (trx) => {
      await requireDoctor(trx, actor.organizationId, id);
      if ((await countBillsOfDoctor(trx, actor.organizationId, id)) > 0)
        throw new ConflictError(`${name} was just named on a bill; deactivate the doctor instead`, 'DOCTOR_HAS_BILLS');
      await endSessionsOfUser(trx, id);
      // The profile row goes with the user (ON DELETE CASCADE).
      await deleteUserRow(trx, actor.organizationId, id);
      await writeAudit(trx, actor, {
        action: 'delete',
        entity: 'doctor',
        entityId: id,
        oldValues: doctorAuditValues(doctor),
      });
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) {
      throw new ConflictError(
        `${name} is named in other records (visits, results or work they did) and cannot be deleted; deactivate the doctor instead`,
        'DOCTOR_IN_USE',
      );
    }
    throw err;
  }
  return doctor;
}

/** What the import and export engine (transfer/) writes and reads through. */
export { toDoctor } from './mappers.js';
