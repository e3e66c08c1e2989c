import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, ValidationError } from '../errors.js';
import { labPermissions, rolesWith } from '../users/service.js';
import { findUser, selectUsers } from '../users/repository.js';
import type { Role } from '../../shared/roles.js';
import { slotKey } from '../../shared/home-collection.js';
import type { Booking, DayBoard, Phlebotomist } from '../../shared/schemas/home-collection.js';
import { requireCalendar } from './calendar.js';
import { getBooking, openBooking } from './service.js';
import { tellPatient } from './notices.js';
import { toBooking } from './mappers.js';
import { addToSlot, bookingsOfDay, findBookingRow, updateBookingRow } from './repository.js';

/** Dispatch: who goes where. Phlebotomists are the lab's active users whose role holds collect_at_home. */

async function collectorRoles(db: Db, organizationId: number): Promise<Role[]> {
  return rolesWith(await labPermissions(db, organizationId), 'collect_at_home');
}

export async function listPhlebotomists(db: Db, organizationId: number): Promise<Phlebotomist[]> {
  const roles = await collectorRoles(db, organizationId);
  const rows = await selectUsers(db, organizationId, { roles });
  return rows.map((u) => ({ id: u.id, name: `${u.first_name} ${u.last_name}`.trim(), role: u.role }));
}

/**
 * Assigns (or reassigns) an open visit to a phlebotomist: their share of the slot is checked against
 * the calendar's visits per phlebotomist (a previous phlebotomist's share is freed), and the patient
 * is told the name.
 */
export async function assignBooking(db: Db, actor: Actor, id: number, phlebotomistId: number): Promise<Booking> {
  const org = actor.organizationId;
  await db.transaction().execute(async (trx) => {
    const b = await openBooking(trx, org, id);
    if (b.phlebotomist_id === phlebotomistId)
      throw ValidationError.field('phlebotomist_id', 'The visit is assigned to this phlebotomist already');
    const user = await findUser(trx, org, phlebotomistId);
    const roles = await collectorRoles(trx, org);
    if (!user || user.is_active !== 1 || !roles.includes(user.role as Role))
      throw ValidationError.field('phlebotomist_id', `User ${phlebotomistId} is not an active phlebotomist of the lab`);
    const c = await requireCalendar(trx, org);
    if (b.phlebotomist_id) await addToSlot(trx, org, slotKey(b.slot_date, b.slot_time, b.phlebotomist_id), -1);
    if ((await addToSlot(trx, org, slotKey(b.slot_date, b.slot_time, phlebotomistId), 1)) > c.per_phlebotomist)
      throw new ConflictError(
        `${user.first_name} ${user.last_name} already has ${c.per_phlebotomist} visit(s) in the ${b.slot_time} slot`,
        'PHLEBOTOMIST_FULL',
      );
    await updateBookingRow(trx, b.id, { phlebotomist_id: phlebotomistId, updated_at: nowIso() });
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'home_booking',
      entityId: b.id,
      oldValues: { phlebotomist_id: b.phlebotomist_id },
      newValues: { phlebotomist_id: phlebotomistId },
    });
    const row = (await findBookingRow(trx, org, b.id))!;
    await tellPatient(
      trx,
      org,
      {
        booking_number: row.booking_number,
        slot_date: row.slot_date,
        slot_time: row.slot_time,
        patient: { first_name: row.patient_first_name, phone: row.patient_phone, email: row.patient_email },
      },
      { kind: 'assigned', phlebotomist: `${user.first_name} ${user.last_name}`.trim() },
    );
  });
  return getBooking(db, org, id);
}

/**
 * A day's visits by area and by phlebotomist, each route in slot order; cancelled visits are left
 * out (their place is free), the others shown with their status.
 */
export async function dayBoard(db: Db, organizationId: number, date: string): Promise<DayBoard> {
  const visits = (await bookingsOfDay(db, organizationId, date)).filter((r) => r.status !== 'cancelled').map(toBooking);
  const areas = new Map<number, DayBoard['areas'][number]>();
  const routes = new Map<number, DayBoard['routes'][number]>();
  for (const v of visits) {
    const a = areas.get(v.area_id) ?? { area_id: v.area_id, area_name: v.area_name, visits: [] };
    a.visits.push(v);
    areas.set(v.area_id, a);
    if (!v.phlebotomist_id) continue;
    const r = routes.get(v.phlebotomist_id) ?? {
      phlebotomist_id: v.phlebotomist_id,
      phlebotomist_name: v.phlebotomist_name ?? '',
      visits: [],
    };
    r.visits.push(v);
    routes.set(v.phlebotomist_id, r);
  }
  const byName =
    <T extends { visits: unknown[] }>(k: (x: T) => string) =>
    (x: T, y: T) =>
      k(x).localeCompare(k(y));
  return {
    date,
    areas: [...areas.values()].sort(byName((a) => a.area_name)),
    routes: [...routes.values()].sort(byName((r) => r.phlebotomist_name)),
    unassigned: visits.filter((v) => !v.phlebotomist_id && v.status === 'booked'),
  };
}
