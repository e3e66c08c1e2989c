import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { NotFoundError } from '../errors.js';
import { testsOfLines } from '../catalogue/service.js';
import { testTubes } from '../catalogue/repository.js';
import { findBill } from '../billing/repository.js';
import { labToday } from '../settings/service.js';
import { reserveBarcode } from '../samples/service.js';
import { tubeLabel, tubeOf, tubeSampleType, type TubeId } from '../../shared/tubes.js';
import { paiseToRupees } from '../../shared/money.js';
import type { PhoneVisit, Tube, Visit } from '../../shared/schemas/home-collection.js';
import { barcodeSvg } from '../pdf/barcode.js';
import { toBooking, type StoredLine } from './mappers.js';
import {
  bookingsOfDay,
  findBookingRow,
  insertTubeRows,
  tubesOfBookings,
  type BookingRow,
  type tubeByBarcode,
} from './repository.js';

/** Where a tube drawn at home is until the lab scans it in. */
export const IN_TRANSIT = 'In transit (home collection)';

/**
 * A visit's tubes: one per tube its tests need (as the bill's order will make them), each with a
 * barcode lims reserves when the visit is booked, so the phone prints or scans labels offline and
 * no other tube, at the desk or on another phone, gets the same barcode.
 */
export async function reserveTubes(trx: Db, organizationId: number, bookingId: number, lines: StoredLine[]) {
  const ordered = lines.map((l) => ({
    test_id: l.item_type === 'test' ? l.item_id : null,
    profile_id: l.item_type === 'profile' ? l.item_id : null,
    package_id: l.item_type === 'package' ? l.item_id : null,
  }));
  const tubes = new Set<TubeId>();
  for (const t of await testTubes(trx, await testsOfLines(trx, ordered))) tubes.add(tubeOf(t));
  const rows = [];
  for (const tube of tubes) {
    const type = tubeSampleType(tube);
    rows.push({
      organization_id: organizationId,
      booking_id: bookingId,
      container: tube,
      sample_type: type,
      barcode: await reserveBarcode(trx, organizationId, type, `home_booking:${bookingId}`),
      collected_at: null,
      sample_id: null,
      received_at: null,
      received_temperature: null,
      received_by: null,
    });
  }
  await insertTubeRows(trx, rows);
}

export const toTube = (t: Awaited<ReturnType<typeof tubeByBarcode>> & object): Tube => ({
  barcode: t.barcode,
  container: t.container,
  sample_type: t.sample_type,
  collected_at: t.collected_at,
  sample_id: t.sample_id,
  received_at: t.received_at,
  received_temperature: t.received_temperature === null ? null : Number(t.received_temperature),
});

async function toVisits(db: Db, organizationId: number, rows: BookingRow[]): Promise<Visit[]> {
  const tubes = await tubesOfBookings(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  const out: Visit[] = [];
  for (const r of rows) {
    const bill = r.bill_id ? await findBill(db, organizationId, r.bill_id) : undefined;
    out.push({
      ...toBooking(r),
      tubes: tubes.filter((t) => t.booking_id === r.id).map(toTube),
      started_at: r.started_at,
      arrived_at: r.arrived_at,
      collected_at: r.collected_at,
      amount_due: paiseToRupees(bill ? bill.final_amount_paise : r.quoted_paise),
      paid: paiseToRupees(bill ? bill.paid_paise : 0),
    });
  }
  return out;
}

/**
 * The signed-in phlebotomist's visits of a day (the lab's today unless given), in slot order, with
 * their tubes and each tube's label barcode (the phone prints labels at the door, often offline).
 */
export async function myVisits(db: Db, actor: Actor, date?: string): Promise<{ date: string; visits: PhoneVisit[] }> {
  const day = date ?? (await labToday(db, actor.organizationId));
  const rows = await bookingsOfDay(db, actor.organizationId, day, actor.userId!);
  const visits = await toVisits(db, actor.organizationId, rows);
  return {
    date: day,
    visits: visits.map((v) => ({
      ...v,
      tubes: v.tubes.map((t) => ({
        ...t,
        label_svg: barcodeSvg(t.barcode),
        container_label: tubeLabel(t.container) ?? t.sample_type,
      })),
    })),
  };
}

export async function getVisit(db: Db, organizationId: number, id: number): Promise<Visit> {
  const row = await findBookingRow(db, organizationId, id);
  if (!row) throw new NotFoundError('Booking', id);
  return (await toVisits(db, organizationId, [row]))[0]!;
}
