import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { labSettings, saveLabSwitch } from '../settings/service.js';
import { slotKey, slotTimes } from '../../shared/home-collection.js';
import type { Area, AreaInput, Calendar, CalendarUpdate, Slot } from '../../shared/schemas/home-collection.js';
import {
  areaNamed,
  areaRows,
  calendarRow,
  fastingRows,
  findAreaRow,
  insertAreaRow,
  labTestIds,
  pinRows,
  replaceAreaPins,
  replaceFastingRows,
  saveCalendarRow,
  slotLoads,
  updateAreaRow,
} from './repository.js';

/** The lab's slot calendar, its areas by pin code, and the free places of a day's slots. */

const UNSET = { slot_minutes: 60, first_slot: '07:00', last_slot: '11:00', slot_capacity: 4, per_phlebotomist: 1 };

export async function getCalendar(db: Db, organizationId: number): Promise<Calendar> {
  const row = await calendarRow(db, organizationId);
  const fasting = await fastingRows(db, organizationId);
  const settings = await labSettings(db, organizationId);
  return {
    configured: !!row,
    slot_minutes: row?.slot_minutes ?? UNSET.slot_minutes,
    first_slot: row?.first_slot ?? UNSET.first_slot,
    last_slot: row?.last_slot ?? UNSET.last_slot,
    slot_capacity: row?.slot_capacity ?? UNSET.slot_capacity,
    per_phlebotomist: row?.per_phlebotomist ?? UNSET.per_phlebotomist,
    portal_booking: row?.portal_booking === 1,
    record_temperature: settings.recordReceiveTemperature,
    fasting: fasting.map((f) => ({ test_id: f.test_id, test_name: f.test_name, hours: Number(f.hours) })),
  };
}

/** The calendar a booking needs; a lab that has not set home collection up takes no booking. */
export async function requireCalendar(db: Db, organizationId: number) {
  const row = await calendarRow(db, organizationId);
  if (!row) throw new ConflictError('Home collection is not set up: save the slot calendar first', 'NOT_CONFIGURED');
  return row;
}

export async function updateCalendar(db: Db, actor: Actor, input: CalendarUpdate): Promise<Calendar> {
  const org = actor.organizationId;
  await db.transaction().execute(async (trx) => {
    const ids = [...new Set(input.fasting.map((f) => f.test_id))];
    if (ids.length !== input.fasting.length) throw ValidationError.field('fasting', 'A test is listed twice');
    const known = new Set((await labTestIds(trx, org, ids)).map((r) => r.id));
    const unknown = input.fasting.findIndex((f) => !known.has(f.test_id));
    if (unknown >= 0)
      throw ValidationError.field(`fasting.${unknown}.test_id`, `Unknown test ${input.fasting[unknown]!.test_id}`);
    const before = await getCalendar(trx, org);
    await saveCalendarRow(trx, {
      organization_id: org,
      slot_minutes: input.slot_minutes,
      first_slot: input.first_slot,
      last_slot: input.last_slot,
      slot_capacity: input.slot_capacity,
      per_phlebotomist: input.per_phlebotomist,
      portal_booking: input.portal_booking ? 1 : 0,
      updated_at: nowIso(),
    });
    await replaceFastingRows(trx, org, input.fasting);
    // Kept in the lab's settings rather than a calendar column: no change of table, and the receive
    // scan reads it with the lab's other settings.
    await saveLabSwitch(trx, org, 'recordReceiveTemperature', input.record_temperature);
    await writeAudit(trx, actor, {
      action: before.configured ? 'update' : 'create',
      entity: 'home_calendar',
      entityId: org,
      oldValues: before.configured ? { ...before } : null,
      newValues: { ...input },
    });
  });
  return getCalendar(db, org);
}

export async function listAreas(db: Db, organizationId: number): Promise<Area[]> {
  const pins = await pinRows(db, organizationId);
  return (await areaRows(db, organizationId)).map((a) => ({
    id: a.id,
    name: a.name,
    is_active: a.is_active === 1,
    pin_codes: pins.filter((p) => p.area_id === a.id).map((p) => p.pin_code),
  }));
}

async function saveArea(db: Db, actor: Actor, id: number | null, input: AreaInput): Promise<Area> {
  const org = actor.organizationId;
  const areaId = await db.transaction().execute(async (trx) => {
    const before = id ? await findAreaRow(trx, org, id) : undefined;
    if (id && !before) throw new NotFoundError('Area', id);
    const same = await areaNamed(trx, org, input.name);
    if (same && same.id !== id) throw ValidationError.field('name', `There is already an area named ${input.name}`);
    const pins = [...new Set(input.pin_codes)];
    const taken = (await pinRows(trx, org)).find((p) => pins.includes(p.pin_code) && p.area_id !== id);
    if (taken) {
      const other = await findAreaRow(trx, org, taken.area_id);
      throw ValidationError.field(
        'pin_codes',
        `Pin code ${taken.pin_code} is already in ${other?.name ?? 'another area'}`,
      );
    }
    const now = nowIso();
    const row = before
      ? (await updateAreaRow(trx, before.id, { name: input.name, is_active: input.is_active ? 1 : 0, updated_at: now }),
        before)
      : await insertAreaRow(trx, {
          organization_id: org,
          name: input.name,
          is_active: input.is_active ? 1 : 0,
          at: now,
        });
    await replaceAreaPins(trx, org, row.id, pins);
    await writeAudit(trx, actor, {
      action: before ? 'update' : 'create',
      entity: 'home_area',
      entityId: row.id,
      oldValues: before ? { ...before } : null,
      newValues: { ...input, pin_codes: pins },
    });
    return row.id;
  });
  return (await listAreas(db, org)).find((a) => a.id === areaId)!;
}

export const createArea = (db: Db, actor: Actor, input: AreaInput) => saveArea(db, actor, null, input);
export const updateArea = (db: Db, actor: Actor, id: number, input: AreaInput) => saveArea(db, actor, id, input);

/** Each slot of a day with its capacity and the places booked. */
export async function slotsOfDay(db: Db, organizationId: number, date: string): Promise<Slot[]> {
  const c = await requireCalendar(db, organizationId);
  const times = slotTimes(c);
  const loads = await slotLoads(
    db,
    organizationId,
    times.map((t) => slotKey(date, t)),
  );
  return times.map((time) => {
    const booked = loads.get(slotKey(date, time)) ?? 0;
    return { time, capacity: c.slot_capacity, booked, available: Math.max(0, c.slot_capacity - booked) };
  });
}
