import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../db/connection.js';
import type { HomeBookingsTable, HomeCalendarsTable, HomeSyncOpsTable, HomeTubesTable } from './tables.js';
import { labRows } from '../db/joins.js';
import { labTable, labDelete } from '../db/lab-tables.js';
import { onPage } from '../db/paging.js';

/** Every query of home collection, always filtered by the lab. */

export function calendarRow(db: Db, organizationId: number) {
  return labRows(db, 'home_calendars', organizationId).executeTakeFirst();
}

export async function saveCalendarRow(trx: Db, row: Insertable<HomeCalendarsTable>): Promise<void> {
  const { organization_id: _org, ...rest } = row;
  await trx
    .insertInto('home_calendars')
    .values(row)
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(rest))
    .execute();
}

export function fastingRows(db: Db, organizationId: number) {
  return db
    .selectFrom('home_fasting as f')
    .innerJoin('tests as t', 't.id', 'f.test_id')
    .select(['f.test_id', 'f.hours', 't.name as test_name'])
    .where('f.organization_id', '=', organizationId)
    .orderBy('t.name')
    .execute();
}

export async function replaceFastingRows(
  trx: Db,
  organizationId: number,
  rows: readonly { test_id: number; hours: number }[],
): Promise<void> {
  await labDelete(trx, 'home_fasting', organizationId).execute();
  if (rows.length)
    await trx
      .insertInto('home_fasting')
      .values(rows.map((r) => ({ organization_id: organizationId, test_id: r.test_id, hours: r.hours })))
      .execute();
}

/** The longest fasting any of these tests needs, or null. */
export async function fastingHoursOf(db: Db, organizationId: number, testIds: readonly number[]) {
  if (!testIds.length) return null;
  const row = await labTable(db, 'home_fasting', organizationId)
    .select((eb) => eb.fn.max('hours').as('hours'))
    .where('test_id', 'in', [...testIds])
    .executeTakeFirst();
  return row?.hours == null ? null : Number(row.hours);
}

export async function labTestIds(db: Db, organizationId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  return labTable(db, 'tests', organizationId)
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
}

export function areaRows(db: Db, organizationId: number) {
  return labRows(db, 'home_areas', organizationId).orderBy('name').execute();
}

export function findAreaRow(db: Db, organizationId: number, id: number) {
  return labRows(db, 'home_areas', organizationId).where('id', '=', id).executeTakeFirst();
}

export function areaNamed(db: Db, organizationId: number, name: string) {
  return labTable(db, 'home_areas', organizationId)
    .select('id')
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

export function insertAreaRow(
  trx: Db,
  values: { organization_id: number; name: string; is_active: number; at: string },
) {
  return trx
    .insertInto('home_areas')
    .values({
      organization_id: values.organization_id,
      name: values.name,
      is_active: values.is_active,
      created_at: values.at,
      updated_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateAreaRow(
  trx: Db,
  id: number,
  patch: { name: string; is_active: number; updated_at: string },
) {
  await trx.updateTable('home_areas').set(patch).where('id', '=', id).execute();
}

export function pinRows(db: Db, organizationId: number) {
  return labTable(db, 'home_area_pins', organizationId).select(['pin_code', 'area_id']).orderBy('pin_code').execute();
}

export async function replaceAreaPins(trx: Db, organizationId: number, areaId: number, pins: readonly string[]) {
  await trx.deleteFrom('home_area_pins').where('area_id', '=', areaId).execute();
  if (pins.length)
    await trx
      .insertInto('home_area_pins')
      .values(pins.map((pin_code) => ({ organization_id: organizationId, pin_code, area_id: areaId })))
      .execute();
}

/** The active area serving a pin code. */
export function areaOfPin(db: Db, organizationId: number, pin: string) {
  return db
    .selectFrom('home_area_pins as p')
    .innerJoin('home_areas as a', 'a.id', 'p.area_id')
    .select(['a.id', 'a.name'])
    .where('p.organization_id', '=', organizationId)
    .where('p.pin_code', '=', pin)
    .where('a.is_active', '=', 1)
    .executeTakeFirst();
}

/**
 * Adds `delta` to a slot's count and answers the new count. The upsert takes the row's lock on
 * PostgreSQL (a second booker of the same slot waits for the first to commit and then counts on
 * its figure) and SQLite has one writer, so the count never misses a concurrent booking.
 */
export async function addToSlot(trx: Db, organizationId: number, key: string, delta: number): Promise<number> {
  const row = await trx
    .insertInto('home_slot_loads')
    .values({ organization_id: organizationId, slot_key: key, booked: delta })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'slot_key'])
        .doUpdateSet((eb) => ({ booked: eb('home_slot_loads.booked', '+', delta) })),
    )
    .returning('booked')
    .executeTakeFirstOrThrow();
  return Number(row.booked);
}

export async function slotLoads(db: Db, organizationId: number, keys: readonly string[]): Promise<Map<string, number>> {
  if (!keys.length) return new Map();
  const rows = await labTable(db, 'home_slot_loads', organizationId)
    .select(['slot_key', 'booked'])
    .where('slot_key', 'in', [...keys])
    .execute();
  return new Map(rows.map((r) => [r.slot_key, Number(r.booked)]));
}

export function insertBookingRow(trx: Db, values: Insertable<HomeBookingsTable>) {
  return trx.insertInto('home_bookings').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateBookingRow(trx: Db, id: number, patch: Updateable<HomeBookingsTable>): Promise<void> {
  await trx.updateTable('home_bookings').set(patch).where('id', '=', id).execute();
}

export function bookingOwnRow(db: Db, organizationId: number, id: number) {
  return labRows(db, 'home_bookings', organizationId).where('id', '=', id).executeTakeFirst();
}

/**
 * The lab's bookings (`b`) with their patient (`p`) and phlebotomist (`u`, when one is given):
 * whom a list of bookings, or of their tubes, names.
 */
function bookingsWithPeople(db: Db, organizationId: number) {
  return db
    .selectFrom('home_bookings as b')
    .innerJoin('patients as p', 'p.id', 'b.patient_id')
    .leftJoin('users as u', 'u.id', 'b.phlebotomist_id')
    .where('b.organization_id', '=', organizationId);
}

/** Bookings with the names a list shows (patient, area, phlebotomist). */
export function bookingsQuery(db: Db, organizationId: number) {
  return bookingsWithPeople(db, organizationId)
    .innerJoin('home_areas as a', 'a.id', 'b.area_id')
    .selectAll('b')
    .select([
      'p.first_name as patient_first_name',
      'p.last_name as patient_last_name',
      'p.patient_code as patient_code',
      'p.phone as patient_phone',
      'p.email as patient_email',
      'a.name as area_name',
      'u.first_name as phlebotomist_first_name',
      'u.last_name as phlebotomist_last_name',
    ]);
}
export type BookingRow = Awaited<ReturnType<ReturnType<typeof bookingsQuery>['executeTakeFirstOrThrow']>>;

export function findBookingRow(db: Db, organizationId: number, id: number) {
  return bookingsQuery(db, organizationId).where('b.id', '=', id).executeTakeFirst();
}

export async function pageBookings(
  db: Db,
  organizationId: number,
  q: {
    date?: string | undefined;
    status?: string | undefined;
    search?: string | undefined;
    page: number;
    limit: number;
  },
) {
  let query = bookingsQuery(db, organizationId);
  if (q.date) query = query.where('b.slot_date', '=', q.date);
  if (q.status) query = query.where('b.status', '=', q.status);
  if (q.search) {
    const s = `%${q.search.toLowerCase()}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(p.first_name || ' ' || p.last_name)`, 'like', s),
        eb(sql`lower(b.booking_number)`, 'like', s),
        eb(sql`lower(p.patient_code)`, 'like', s),
        eb('b.pin_code', 'like', s),
      ]),
    );
  }
  const total = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .orderBy('b.slot_date', 'desc')
    .orderBy('b.slot_time')
    .orderBy('b.id')
    .$call(onPage(q))
    .execute();
  return { rows, total: Number(total.n) };
}

/** A day's bookings in slot order (the day board and the phone's day). */
export function bookingsOfDay(db: Db, organizationId: number, date: string, phlebotomistId?: number) {
  let query = bookingsQuery(db, organizationId).where('b.slot_date', '=', date);
  if (phlebotomistId) query = query.where('b.phlebotomist_id', '=', phlebotomistId);
  return query.orderBy('b.slot_time').orderBy('b.id').execute();
}

export function insertTubeRows(trx: Db, rows: Insertable<HomeTubesTable>[]) {
  return rows.length ? trx.insertInto('home_tubes').values(rows).execute() : Promise.resolve([]);
}

export function tubesOfBooking(db: Db, organizationId: number, bookingId: number) {
  return labRows(db, 'home_tubes', organizationId).where('booking_id', '=', bookingId).orderBy('id').execute();
}

export async function tubesOfBookings(db: Db, organizationId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  return labRows(db, 'home_tubes', organizationId)
    .where('booking_id', 'in', [...ids])
    .orderBy('id')
    .execute();
}

export function tubeByBarcode(db: Db, organizationId: number, barcode: string) {
  return labRows(db, 'home_tubes', organizationId).where('barcode', '=', barcode).executeTakeFirst();
}

/** Tubes drawn (their sample made) and not yet scanned in at the lab, oldest draw first. */
export function tubesInTransit(db: Db, organizationId: number) {
  return bookingsWithPeople(db, organizationId)
    .innerJoin('home_tubes as t', 't.booking_id', 'b.id')
    .leftJoin('samples as s', 's.id', 't.sample_id')
    .selectAll('t')
    .select([
      'b.booking_number',
      'p.first_name as patient_first_name',
      'p.last_name as patient_last_name',
      'p.patient_code',
      'u.first_name as phlebotomist_first_name',
      'u.last_name as phlebotomist_last_name',
      's.sample_code',
    ])
    .where('t.organization_id', '=', organizationId)
    .where('t.sample_id', 'is not', null)
    .where('t.received_at', 'is', null)
    .orderBy('t.collected_at')
    .orderBy('t.id')
    .execute();
}

export async function updateTubeRow(trx: Db, id: number, patch: Updateable<HomeTubesTable>): Promise<void> {
  await trx.updateTable('home_tubes').set(patch).where('id', '=', id).execute();
}

export function findSyncOp(db: Db, organizationId: number, userId: number, opId: string) {
  return labTable(db, 'home_sync_ops', organizationId)
    .select(['outcome'])
    .where('user_id', '=', userId)
    .where('op_id', '=', opId)
    .executeTakeFirst();
}

export async function insertSyncOp(trx: Db, row: Insertable<HomeSyncOpsTable>): Promise<void> {
  await trx.insertInto('home_sync_ops').values(row).execute();
}

/** Whether a patient has visits booked (a patient with bookings is not deleted). */
export async function bookingsOfPatient(db: Db, organizationId: number, patientId: number): Promise<number> {
  const row = await labTable(db, 'home_bookings', organizationId)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('patient_id', '=', patientId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
