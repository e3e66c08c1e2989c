import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { otherLabAdmin, uniqueWord } from './support.js';
import { setEquipmentClock } from '../../src/core/equipment/clock.js';
import { sweepOverdueEquipmentWork } from '../../src/core/equipment/overdue.js';
import { startServerJobs } from './jobs-support.js';
import { addDays, localDate, localTimeUtc } from '../../src/shared/time.js';
import type { Equipment } from '../../src/shared/schemas/equipment.js';
import type { Notification } from '../../src/shared/schemas/notifications.js';

/** Overdue calibration and maintenance are announced by the server's sweep, once per record and due date. */

let lab: TestLab;
let manager: Client;
let technician: Client;
let receptionist: Client;

beforeAll(async () => {
  lab = await makeLab();
  manager = await lab.as('lab_manager');
  technician = await lab.as('technician');
  receptionist = await lab.as('receptionist');
});
afterAll(() => lab.close());
afterEach(() => setEquipmentClock(null));

const TZ = 'Asia/Kolkata';

async function register(kind: 'machine' | 'instrument'): Promise<Equipment> {
  const res = await lab.admin.post('/api/equipment', {
    kind,
    name: `Analyser ${uniqueWord()}`,
    serial_number: `SN-${uniqueWord('').toUpperCase()}`,
    type: kind === 'instrument' ? 'Analytical' : 'Chemistry Analyzer',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ equipment: Equipment }>().equipment;
}

async function schedule(what: 'calibrations' | 'maintenance', equipmentId: number, due: string) {
  // Preventive is a type of both (the spec's lists).
  const res = await technician.post(`/api/${what}`, { equipment_id: equipmentId, type: 'Preventive', due_date: due });
  expect(res.statusCode, res.body).toBe(201);
  return (what === 'calibrations' ? res.json().calibration : res.json().maintenance) as { id: number };
}

async function about(as: Client, serial: string): Promise<Notification[]> {
  const res = await as.get('/api/notifications?limit=200');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ notifications: Notification[] }>().notifications.filter((n) => n.message.includes(serial));
}

async function setPush(on: boolean) {
  const db = lab.database.db;
  const org = await db
    .selectFrom('organizations')
    .select('settings')
    .where('id', '=', lab.organizationId)
    .executeTakeFirstOrThrow();
  const settings = { ...(JSON.parse(org.settings) as Record<string, unknown>), pushNotifications: on };
  await db
    .updateTable('organizations')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', lab.organizationId)
    .execute();
}

describe('overdue calibration and maintenance notifications', () => {
  it('are raised at the lab’s midnight after the due date, once, to equipment staff and lab managers', async () => {
    const inst = await register('instrument');
    const due = addDays(localDate(TZ), 3);
    const cal = await schedule('calibrations', inst.id, due);
    await schedule('maintenance', inst.id, due);
    // A cancelled record past its date is not announced.
    const cancelled = await schedule('calibrations', inst.id, due);
    const cancel = await technician.put(`/api/calibrations/${cancelled.id}`, { status: 'cancelled' });
    expect(cancel.statusCode, cancel.body).toBe(200);

    // The last second of the due day in Kolkata: nothing yet.
    setEquipmentClock(localTimeUtc(TZ, due, 23, 59, 59));
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBe(0);
    expect(await about(manager, inst.serial_number)).toEqual([]);

    // Midnight in Kolkata (18:30 UTC the day before): overdue, announced.
    setEquipmentClock(localTimeUtc(TZ, addDays(due, 1), 0, 0, 0));
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBeGreaterThanOrEqual(4);
    const mine = await about(manager, inst.serial_number);
    expect(mine.map((n) => n.kind).sort()).toEqual(['calibration_overdue', 'maintenance_overdue']);
    const c = mine.find((n) => n.kind === 'calibration_overdue')!;
    expect(c).toMatchObject({
      type: 'warning',
      priority: 'high',
      title: `Calibration overdue: ${inst.name}`,
      link: `/calibration?status=overdue&search=${inst.serial_number}`,
    });
    const [y, m, d] = due.split('-');
    expect(c.message).toContain(`was due ${d}/${m}/${y}`);
    expect(mine.find((n) => n.kind === 'maintenance_overdue')).toMatchObject({ priority: 'medium' });
    expect((await about(technician, inst.serial_number)).length).toBe(2);
    expect((await about(lab.admin, inst.serial_number)).length).toBe(2);
    expect(await about(receptionist, inst.serial_number)).toEqual([]);

    // Not repeated by later sweeps, on this day or the next.
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBe(0);
    setEquipmentClock(localTimeUtc(TZ, addDays(due, 2), 9, 0, 0));
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBe(0);
    expect(await about(manager, inst.serial_number)).toHaveLength(2);

    // Rescheduled and missed again: announced again, once.
    const later = addDays(due, 5);
    const moved = await technician.put(`/api/calibrations/${cal.id}`, { due_date: later });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBe(0);
    setEquipmentClock(localTimeUtc(TZ, addDays(later, 1), 0, 0, 1));
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBeGreaterThan(0);
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBe(0);
    const cals = (await about(manager, inst.serial_number)).filter((n) => n.kind === 'calibration_overdue');
    expect(cals).toHaveLength(2);

    // Done work is never announced: complete the calibration, schedule nothing, sweep: nothing new.
    const done = await technician.post(`/api/calibrations/${cal.id}/complete`, { performed_by: 'Ravi' });
    expect(done.statusCode, done.body).toBe(200);
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBe(0);
  });

  it('a paper record already past due is announced by the next sweep; archived equipment is not', async () => {
    const machine = await register('machine');
    await schedule('calibrations', machine.id, '2025-01-10');
    const gone = await register('machine');
    await schedule('calibrations', gone.id, '2025-01-10');
    // Equipment that records name is archived on delete, its open work cancelled.
    expect((await lab.admin.delete(`/api/equipment/${gone.id}`)).statusCode).toBe(200);
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBeGreaterThan(0);
    expect(await about(manager, machine.serial_number)).toHaveLength(1);
    expect(await about(manager, gone.serial_number)).toEqual([]);
  });

  it('with pushNotifications off nothing is written; turned on, the record is announced then', async () => {
    const machine = await register('machine');
    await schedule('calibrations', machine.id, addDays(localDate(TZ), -1));
    await setPush(false);
    try {
      expect(await sweepOverdueEquipmentWork(lab.database.db)).toBe(0);
      expect(await about(manager, machine.serial_number)).toEqual([]);
    } finally {
      await setPush(true);
    }
    expect(await sweepOverdueEquipmentWork(lab.database.db)).toBeGreaterThan(0);
    expect(await about(manager, machine.serial_number)).toHaveLength(1);
  });

  it('another lab’s staff are not told of this lab’s overdue work', async () => {
    const other = await otherLabAdmin(lab);
    const machine = await register('machine');
    await schedule('calibrations', machine.id, addDays(localDate(TZ), -2));
    await sweepOverdueEquipmentWork(lab.database.db);
    expect(await about(manager, machine.serial_number)).toHaveLength(1);
    expect(await about(other.admin, machine.serial_number)).toEqual([]);
  });

  it("lims serve's timer announces overdue calibration by itself", async () => {
    const machine = await register('machine');
    await schedule('calibrations', machine.id, addDays(localDate(TZ), -1));
    const { scheduler, errors } = startServerJobs(lab.database, ['overdue-sweep']);
    try {
      await expect.poll(async () => (await about(manager, machine.serial_number)).length, { timeout: 5000 }).toBe(1);
    } finally {
      await scheduler.stop();
    }
    expect(errors).toEqual([]);
  });
});
