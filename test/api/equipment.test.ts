import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type Client, type TestLab } from '../helpers.js';
import { rows } from '../db.js';
import { auditRowsFor, badFields, createPatient, otherLabAdmin, uniqueWord } from './support.js';
import { seedSample } from './lab-records.js';
import { setEquipmentClock } from '../../src/core/equipment/clock.js';
import { addDays, localDate, localTimeUtc } from '../../src/shared/time.js';
import type { Equipment, EquipmentPage, EquipmentSummary, Reading } from '../../src/shared/schemas/equipment.js';

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

function serial(): string {
  return `SN-${uniqueWord('').toUpperCase()}`;
}

export async function register(as: Client, body: Record<string, unknown> = {}): Promise<Equipment> {
  const res = await as.post('/api/equipment', {
    kind: 'machine',
    name: `Analyser ${uniqueWord()}`,
    model: 'AU480',
    serial_number: serial(),
    type: 'Chemistry Analyzer',
    location: 'Biochemistry',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ equipment: Equipment }>().equipment;
}

async function count(table: 'equipment' | 'equipment_readings' | 'equipment_services'): Promise<number> {
  const r = await rows<{ n: number }>(lab.database, `SELECT count(*) AS n FROM ${table}`);
  return Number(r[0]!.n);
}

describe('the equipment register', () => {
  it('registers a machine and an instrument with the spec fields and answers them back', async () => {
    const m = await register(lab.admin, {
      installed_on: '2025-01-15',
      warranty_end: '2028-01-14',
      supplier: 'Beckman',
    });
    expect(m).toMatchObject({
      kind: 'machine',
      model: 'AU480',
      status: 'operational',
      set_status: 'operational',
      installed_on: '2025-01-15',
      warranty_end: '2028-01-14',
      supplier: 'Beckman',
      next_calibration: null,
      temperature: null,
      tests_in_window: 0,
    });
    const i = await register(lab.admin, {
      kind: 'instrument',
      type: 'Environmental',
      min_temperature: 2,
      max_temperature: 8,
    });
    expect(i).toMatchObject({ kind: 'instrument', type: 'Environmental', min_temperature: 2, max_temperature: 8 });
    const got = await lab.admin.get(`/api/equipment/${i.id}`);
    expect(got.json<{ equipment: Equipment }>().equipment.serial_number).toBe(i.serial_number);
    const audit = await auditRowsFor(lab, 'equipment', m.id);
    expect(audit.map((a) => a.action)).toContain('create');
  });

  it('refuses bad input naming each field, and stores nothing', async () => {
    const before = await count('equipment');
    const res = await lab.admin.post('/api/equipment', {
      kind: 'robot',
      name: '',
      serial_number: '',
      installed_on: '2025-02-30',
      min_humidity: 'damp',
      min_temperature: 10,
      max_temperature: 2,
    });
    expect(badFields(res).sort()).toEqual(['installed_on', 'kind', 'min_humidity', 'name', 'serial_number'].sort());
    const limits = await lab.admin.post('/api/equipment', {
      kind: 'machine',
      name: 'X',
      serial_number: serial(),
      min_temperature: 10,
      max_temperature: 2,
    });
    expect(badFields(limits)).toEqual(['max_temperature']);
    const type = await lab.admin.post('/api/equipment', {
      kind: 'instrument',
      name: 'X',
      serial_number: serial(),
      type: 'Toaster',
    });
    expect(badFields(type)).toEqual(['type']);
    expect(await count('equipment')).toBe(before);
  });

  it('keeps serial numbers unique in the lab (any case): 409; another lab may use the same', async () => {
    const m = await register(lab.admin);
    const dup = await lab.admin.post('/api/equipment', {
      kind: 'instrument',
      name: 'Y',
      serial_number: m.serial_number.toLowerCase(),
    });
    expect(dup.statusCode).toBe(409);
    const other = await otherLabAdmin(lab);
    const theirs = await other.admin.post('/api/equipment', {
      kind: 'machine',
      name: 'Theirs',
      serial_number: m.serial_number,
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const edit = await lab.admin.put(`/api/equipment/${(await register(lab.admin)).id}`, {
      serial_number: m.serial_number,
    });
    expect(edit.statusCode).toBe(409);
  });

  it('lists with search and the spec filters (kind, status, location, type), paged', async () => {
    const loc = `Room ${uniqueWord()}`;
    const a = await register(lab.admin, { location: loc });
    const b = await register(lab.admin, { location: loc, kind: 'instrument', type: 'Measurement', status: 'offline' });
    const list = (q: string) => lab.admin.get(`/api/equipment?${q}`).then((r) => r.json<EquipmentPage>());
    expect((await list(`location=${encodeURIComponent(loc)}`)).equipment.map((e) => e.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect((await list(`location=${encodeURIComponent(loc)}&kind=instrument`)).equipment.map((e) => e.id)).toEqual([
      b.id,
    ]);
    expect((await list(`location=${encodeURIComponent(loc)}&status=offline`)).equipment.map((e) => e.id)).toEqual([
      b.id,
    ]);
    expect((await list(`search=${encodeURIComponent(a.serial_number)}`)).equipment.map((e) => e.id)).toEqual([a.id]);
    const paged = await list(`location=${encodeURIComponent(loc)}&limit=1&page=2`);
    expect(paged).toMatchObject({ total: 2, totalPages: 2, currentPage: 2, hasNextPage: false, hasPrevPage: true });
    expect(badFields(await lab.admin.get('/api/equipment?status=broken'))).toEqual(['status']);
  });

  it('keeps status changes as history, with who and why', async () => {
    const m = await register(lab.admin);
    const res = await technician.put(`/api/equipment/${m.id}/status`, { status: 'error', reason: 'Lamp failure' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ equipment: Equipment }>().equipment.status).toBe('error');
    await lab.admin.put(`/api/equipment/${m.id}`, { status: 'operational', status_reason: 'Lamp replaced' });
    const h = (await lab.admin.get(`/api/equipment/${m.id}/history`)).json<{
      history: {
        status: string;
        previous_status: string | null;
        reason: string | null;
        changed_by_name: string | null;
      }[];
    }>().history;
    expect(h.map((x) => [x.status, x.previous_status, x.reason])).toEqual([
      ['operational', 'error', 'Lamp replaced'],
      ['error', 'operational', 'Lamp failure'],
      ['operational', null, 'Registered'],
    ]);
    expect(h[1]!.changed_by_name).toContain('technician');
    expect(badFields(await technician.put(`/api/equipment/${m.id}/status`, { status: 'calibration_due' }))).toEqual([
      'status',
    ]);
  });

  it('computes uptime from the status history and tests per hour from results and QC naming it', async () => {
    const m = await register(lab.admin);
    const t0 = Date.parse(m.created_at);
    // Two hours operational, one hour in error, one more operational: 75 % uptime over four hours.
    setEquipmentClock(new Date(t0 + 2 * 3600_000));
    await technician.put(`/api/equipment/${m.id}/status`, { status: 'error' });
    setEquipmentClock(new Date(t0 + 3 * 3600_000));
    await technician.put(`/api/equipment/${m.id}/status`, { status: 'operational' });
    setEquipmentClock(new Date(t0 + 4 * 3600_000));
    const test = (
      await lab.admin.post('/api/tests', {
        name: `Glucose ${uniqueWord()}`,
        code: uniqueWord('G').toUpperCase().slice(0, 10),
        price: 100,
      })
    ).json().test;
    const patient = await createPatient(lab.admin);
    for (let i = 0; i < 3; i++) {
      const s = await seedSample(lab.database.db, lab.organizationId, {
        patientId: patient.id,
        testIds: [test.id],
        status: 'collected',
      });
      const r = await technician.post('/api/test-results', {
        sample_id: s.id,
        test_id: test.id,
        result_value: '98',
        equipment_id: m.id,
      });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().result).toMatchObject({ equipment_id: m.id, equipment_warning: null });
    }
    const got = (await lab.admin.get(`/api/equipment/${m.id}`)).json<{ equipment: Equipment }>().equipment;
    expect(got.uptime).toBeCloseTo(75, 0);
    expect(got.tests_in_window).toBe(3);
    expect(got.tests_per_hour).toBeCloseTo(1, 1);
  });

  it('refuses results and QC naming unknown or another lab’s equipment (400 equipment_id)', async () => {
    const other = await otherLabAdmin(lab);
    const theirs = (
      await other.admin.post('/api/equipment', { kind: 'machine', name: 'Theirs', serial_number: serial() })
    ).json().equipment;
    const test = (
      await lab.admin.post('/api/tests', {
        name: `Urea ${uniqueWord()}`,
        code: uniqueWord('U').toUpperCase().slice(0, 10),
        price: 100,
      })
    ).json().test;
    const patient = await createPatient(lab.admin);
    const s = await seedSample(lab.database.db, lab.organizationId, {
      patientId: patient.id,
      testIds: [test.id],
      status: 'collected',
    });
    for (const id of [theirs.id, 999999]) {
      const r = await technician.post('/api/test-results', {
        sample_id: s.id,
        test_id: test.id,
        result_value: '30',
        equipment_id: id,
      });
      expect(badFields(r)).toEqual(['equipment_id']);
    }
    const stored = await rows(lab.database, 'SELECT id FROM test_results WHERE sample_id = ?', s.id);
    expect(stored).toEqual([]);
  });

  it('erases equipment nothing names, archives equipment with records (gone from lists, GET 404, serial free)', async () => {
    const fresh = await register(lab.admin);
    const gone = await lab.admin.delete(`/api/equipment/${fresh.id}`);
    expect(gone.json()).toMatchObject({ archived: false });
    expect(await rows(lab.database, 'SELECT id FROM equipment WHERE id = ?', fresh.id)).toEqual([]);

    const used = await register(lab.admin, { kind: 'instrument', type: 'Environmental' });
    await technician.post(`/api/equipment/${used.id}/readings`, { temperature: 5 });
    const cal = (
      await manager.post('/api/calibrations', { equipment_id: used.id, type: 'Routine', due_date: '2030-01-01' })
    ).json().calibration;
    const archived = await lab.admin.delete(`/api/equipment/${used.id}`);
    expect(archived.json()).toMatchObject({ archived: true });
    expect((await lab.admin.get(`/api/equipment/${used.id}`)).statusCode).toBe(404);
    const list = (await lab.admin.get(`/api/equipment?search=${used.serial_number}`)).json<EquipmentPage>();
    expect(list.total).toBe(0);
    expect((await lab.admin.get(`/api/calibrations/${cal.id}`)).json().calibration.status).toBe('cancelled');
    await register(lab.admin, { serial_number: used.serial_number });
  });
});

describe('permissions and labs', () => {
  it('receptionists see nothing; technicians read, log readings and change status but do not register', async () => {
    const m = await register(lab.admin, { kind: 'instrument', type: 'Environmental' });
    for (const url of [
      '/api/equipment',
      `/api/equipment/${m.id}`,
      '/api/calibrations',
      '/api/maintenance',
      '/api/maintenance/reports/monthly',
    ])
      expect((await receptionist.get(url)).statusCode, url).toBe(403);
    expect((await technician.get('/api/equipment')).statusCode).toBe(200);
    expect(
      (await technician.post('/api/equipment', { kind: 'machine', name: 'T', serial_number: serial() })).statusCode,
    ).toBe(403);
    expect((await technician.put(`/api/equipment/${m.id}`, { name: 'Renamed' })).statusCode).toBe(403);
    expect((await technician.delete(`/api/equipment/${m.id}`)).statusCode).toBe(403);
    expect((await technician.post(`/api/equipment/${m.id}/readings`, { temperature: 4 })).statusCode).toBe(201);
    expect((await receptionist.post(`/api/equipment/${m.id}/readings`, { temperature: 4 })).statusCode).toBe(403);
    expect(
      (await technician.post('/api/calibrations', { equipment_id: m.id, type: 'Routine', due_date: '2030-01-01' }))
        .statusCode,
    ).toBe(201);
    expect((await technician.get('/api/maintenance/reports/monthly/csv')).statusCode).toBe(403);
    expect((await manager.get('/api/maintenance/reports/monthly/csv')).statusCode).toBe(200);
  });

  it('another lab cannot see or touch this lab’s equipment or its records', async () => {
    const m = await register(lab.admin, { kind: 'instrument', type: 'Analytical' });
    const cal = (
      await lab.admin.post('/api/calibrations', { equipment_id: m.id, type: 'Annual', due_date: '2030-01-01' })
    ).json().calibration;
    const mt = (
      await lab.admin.post('/api/maintenance', { equipment_id: m.id, type: 'Preventive', due_date: '2030-01-01' })
    ).json().maintenance;
    const other = await otherLabAdmin(lab);
    expect((await other.admin.get(`/api/equipment/${m.id}`)).statusCode).toBe(404);
    expect((await other.admin.put(`/api/equipment/${m.id}`, { name: 'Mine' })).statusCode).toBe(404);
    expect((await other.admin.delete(`/api/equipment/${m.id}`)).statusCode).toBe(404);
    expect((await other.admin.post(`/api/equipment/${m.id}/readings`, { temperature: 3 })).statusCode).toBe(404);
    expect((await other.admin.get(`/api/equipment/${m.id}/history`)).statusCode).toBe(404);
    expect((await other.admin.get(`/api/calibrations/${cal.id}`)).statusCode).toBe(404);
    expect((await other.admin.post(`/api/calibrations/${cal.id}/complete`, { performed_by: 'X' })).statusCode).toBe(
      404,
    );
    expect((await other.admin.get(`/api/maintenance/${mt.id}`)).statusCode).toBe(404);
    expect(
      badFields(
        await other.admin.post('/api/calibrations', { equipment_id: m.id, type: 'Routine', due_date: '2030-01-01' }),
      ),
    ).toEqual(['equipment_id']);
    expect((await other.admin.get('/api/equipment')).json<EquipmentPage>().total).toBe(0);
    expect((await other.admin.get('/api/calibrations')).json().total).toBe(0);
  });
});

describe('readings', () => {
  it('stores readings, flags one outside the limits and notifies the lab (not the person who logged it)', async () => {
    const fridge = await register(lab.admin, {
      kind: 'instrument',
      type: 'Environmental',
      min_temperature: 2,
      max_temperature: 8,
      max_humidity: 60,
    });
    const ok = await technician.post(`/api/equipment/${fridge.id}/readings`, { temperature: 8, humidity: 60 });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json<{ reading: Reading }>().reading.out_of_range).toBe(false);
    const managerBefore = (await manager.get('/api/notifications?limit=50')).json().total;
    const bad = await technician.post(`/api/equipment/${fridge.id}/readings`, { temperature: 9.5 });
    expect(bad.json<{ reading: Reading; equipment: Equipment }>()).toMatchObject({
      reading: { out_of_range: true, temperature: 9.5 },
      equipment: { temperature: 9.5, reading_out_of_range: true },
    });
    const notes = (await manager.get('/api/notifications?limit=50')).json();
    expect(notes.total).toBe(managerBefore + 1);
    expect(notes.notifications[0]).toMatchObject({ kind: 'equipment_reading', priority: 'high' });
    expect(notes.notifications[0].message).toContain('temperature 9.5');
    const own = (await technician.get('/api/notifications?limit=50')).json();
    expect(own.notifications.filter((n: { kind: string }) => n.kind === 'equipment_reading')).toEqual([]);
    const list = (await technician.get(`/api/equipment/${fridge.id}/readings`)).json<{ readings: Reading[] }>()
      .readings;
    expect(list.map((r) => r.out_of_range)).toEqual([true, false]);
  });

  it('refuses a reading without a value, with bad numbers, or in the future; nothing stored', async () => {
    const i = await register(lab.admin, { kind: 'instrument', type: 'Measurement' });
    const before = await count('equipment_readings');
    expect(badFields(await technician.post(`/api/equipment/${i.id}/readings`, {}))).toEqual(['temperature']);
    expect(
      badFields(
        await technician.post(`/api/equipment/${i.id}/readings`, { temperature: 'cold', humidity: 140 }),
      ).sort(),
    ).toEqual(['humidity', 'temperature']);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect(
      badFields(await technician.post(`/api/equipment/${i.id}/readings`, { temperature: 4, recorded_at: future })),
    ).toEqual(['recorded_at']);
    expect(await count('equipment_readings')).toBe(before);
    expect((await technician.post('/api/equipment/999999/readings', { temperature: 4 })).statusCode).toBe(404);
  });
});

describe('calibration', () => {
  it('is overdue from the day after its due date in the lab, and the instrument shows calibration_due', async () => {
    const i = await register(lab.admin, { kind: 'instrument', type: 'Analytical' });
    const due = addDays(localDate(TZ), 5);
    const res = await technician.post('/api/calibrations', {
      equipment_id: i.id,
      type: 'Routine',
      due_date: due,
      interval_days: 180,
    });
    expect(res.statusCode, res.body).toBe(201);
    const cal = res.json().calibration;
    expect(cal).toMatchObject({ status: 'scheduled', upcoming: true, days_overdue: 0 });
    const state = async () => ({
      cal: (await lab.admin.get(`/api/calibrations/${cal.id}`)).json().calibration,
      eq: (await lab.admin.get(`/api/equipment/${i.id}`)).json<{ equipment: Equipment }>().equipment,
    });
    // The last minute of the due day in Kolkata: still due, not overdue.
    setEquipmentClock(localTimeUtc(TZ, due, 23, 59, 59));
    let s = await state();
    expect(s.cal.status).toBe('scheduled');
    expect(s.eq).toMatchObject({ status: 'operational', calibration_overdue: false, next_calibration: due });
    // Midnight in Kolkata (18:30 UTC the day before in UTC terms): overdue.
    setEquipmentClock(localTimeUtc(TZ, addDays(due, 1), 0, 0, 0));
    s = await state();
    expect(s.cal).toMatchObject({ status: 'overdue', days_overdue: 1, upcoming: false });
    expect(s.eq).toMatchObject({ status: 'calibration_due', set_status: 'operational', calibration_overdue: true });
    const filtered = (
      await lab.admin.get(`/api/equipment?status=calibration_due&search=${i.serial_number}`)
    ).json<EquipmentPage>();
    expect(filtered.equipment.map((e) => e.id)).toEqual([i.id]);
    expect((await lab.admin.get(`/api/calibrations?status=overdue&equipment_id=${i.id}`)).json().total).toBe(1);
    // A machine in maintenance is shown as such, not calibration_due.
    await technician.put(`/api/equipment/${i.id}/status`, { status: 'maintenance' });
    expect((await state()).eq.status).toBe('maintenance');
    await technician.put(`/api/equipment/${i.id}/status`, { status: 'operational' });

    // Recording the work: next due from the interval, the next record scheduled, the instrument operational.
    const performed = addDays(due, 1);
    const done = await technician.post(`/api/calibrations/${cal.id}/complete`, {
      performed_by: 'Ravi (Beckman engineer)',
      performed_at: performed,
      accuracy: 99.2,
      description: 'Two-point calibration',
    });
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json();
    expect(body.calibration).toMatchObject({ status: 'completed', accuracy: 99.2, next_due: addDays(performed, 180) });
    expect(body.next).toMatchObject({
      status: 'scheduled',
      due_date: addDays(performed, 180),
      interval_days: 180,
      type: 'Routine',
    });
    s = await state();
    expect(s.eq).toMatchObject({
      status: 'operational',
      calibration_overdue: false,
      next_calibration: addDays(performed, 180),
    });
    expect((await technician.post(`/api/calibrations/${cal.id}/complete`, { performed_by: 'X' })).statusCode).toBe(409);
    expect((await technician.delete(`/api/calibrations/${cal.id}`)).statusCode).toBe(409);
  });

  it('takes a past due date (records from paper): overdue at once', async () => {
    const i = await register(lab.admin, { kind: 'instrument', type: 'Imaging' });
    const cal = (
      await technician.post('/api/calibrations', { equipment_id: i.id, type: 'Annual', due_date: '2024-03-01' })
    ).json().calibration;
    expect(cal.status).toBe('overdue');
    expect(cal.days_overdue).toBeGreaterThan(100);
  });

  it('upcoming means open and due within 30 days of the lab’s today, both ends included', async () => {
    const i = await register(lab.admin, { kind: 'instrument', type: 'Imaging' });
    const today = localDate(TZ);
    const mk = async (due: string) =>
      (await technician.post('/api/calibrations', { equipment_id: i.id, type: 'Routine', due_date: due })).json()
        .calibration;
    const a = await mk(today);
    const b = await mk(addDays(today, 30));
    const c = await mk(addDays(today, 31));
    expect([a.upcoming, b.upcoming, c.upcoming]).toEqual([true, true, false]);
    const list = (await lab.admin.get(`/api/calibrations?status=upcoming&equipment_id=${i.id}`)).json();
    expect(list.calibrations.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
  });

  it('results and QC entered on an instrument past its calibration carry a warning', async () => {
    const i = await register(lab.admin, { kind: 'instrument', type: 'Analytical' });
    await technician.post('/api/calibrations', {
      equipment_id: i.id,
      type: 'Routine',
      due_date: addDays(localDate(TZ), -1),
    });
    const test = (
      await lab.admin.post('/api/tests', {
        name: `Creatinine ${uniqueWord()}`,
        code: uniqueWord('C').toUpperCase().slice(0, 10),
        price: 100,
      })
    ).json().test;
    const patient = await createPatient(lab.admin);
    const s = await seedSample(lab.database.db, lab.organizationId, {
      patientId: patient.id,
      testIds: [test.id],
      status: 'collected',
    });
    const r = await technician.post('/api/test-results', {
      sample_id: s.id,
      test_id: test.id,
      result_value: '1.1',
      equipment_id: i.id,
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().result.equipment_warning).toContain('calibration was due');
    const again = await lab.admin.get(`/api/test-results/${r.json().result.id}`);
    expect(again.json().result.equipment_warning).toContain(i.serial_number);
    const material = (
      await lab.admin.post('/api/qc/materials', {
        name: `Ctl ${uniqueWord()}`,
        test_id: test.id,
        target_mean: 1,
        target_sd: 0.1,
      })
    ).json().material;
    const run = await technician.post(`/api/qc/materials/${material.id}/runs`, { value: 1.05, equipment_id: i.id });
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json().run).toMatchObject({ equipment_id: i.id });
    expect(run.json().run.equipment_warning).toContain('calibration was due');
  });

  it('refuses bad schedules and bad records of work, naming the field; nothing stored', async () => {
    const i = await register(lab.admin, { kind: 'instrument', type: 'Analytical' });
    const before = await count('equipment_services');
    const bad = await technician.post('/api/calibrations', {
      equipment_id: 'x',
      type: 'Weekly',
      due_date: '2026-13-01',
      interval_days: 0,
    });
    expect(badFields(bad).sort()).toEqual(['due_date', 'equipment_id', 'interval_days', 'type']);
    expect(await count('equipment_services')).toBe(before);
    const cal = (
      await technician.post('/api/calibrations', { equipment_id: i.id, type: 'Routine', due_date: '2030-01-01' })
    ).json().calibration;
    const work = await technician.post(`/api/calibrations/${cal.id}/complete`, {
      performed_by: '',
      accuracy: 120,
      performed_at: 'yesterday',
    });
    expect(badFields(work).sort()).toEqual(['accuracy', 'performed_at', 'performed_by']);
    const future = await technician.post(`/api/calibrations/${cal.id}/complete`, {
      performed_by: 'A',
      performed_at: addDays(localDate(TZ), 2),
    });
    expect(badFields(future)).toEqual(['performed_at']);
    expect((await lab.admin.get(`/api/calibrations/${cal.id}`)).json().calibration.status).toBe('scheduled');
    expect(badFields(await technician.put(`/api/calibrations/${cal.id}`, { due_date: 'soon' }))).toEqual(['due_date']);
    const cancelled = await technician.put(`/api/calibrations/${cal.id}`, { status: 'cancelled' });
    expect(cancelled.json().calibration.status).toBe('cancelled');
    expect((await technician.delete(`/api/calibrations/${cal.id}`)).statusCode).toBe(200);
    expect((await lab.admin.get(`/api/calibrations/${cal.id}`)).statusCode).toBe(404);
  });
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);

describe('calibration certificates', () => {
  async function completedCalibration() {
    const i = await register(lab.admin, { kind: 'instrument', type: 'Measurement' });
    const cal = (
      await technician.post('/api/calibrations', { equipment_id: i.id, type: 'Annual', due_date: localDate(TZ) })
    ).json().calibration;
    await technician.post(`/api/calibrations/${cal.id}/complete`, { performed_by: 'NABL Cal Lab' });
    return cal.id as number;
  }

  it('stores a PDF or an image in the database and serves it back with its real type', async () => {
    const id = await completedCalibration();
    const up = await technician.post(`/api/calibrations/${id}/certificate`, {
      file_name: 'cert 2026.pdf',
      content_base64: PDF.toString('base64'),
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().calibration.certificate).toMatchObject({
      file_name: 'cert 2026.pdf',
      content_type: 'application/pdf',
      size: PDF.length,
    });
    const file = await receptionist.get(`/api/calibrations/${id}/certificate`);
    expect(file.statusCode).toBe(403);
    const got = await technician.get(`/api/calibrations/${id}/certificate`);
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.rawPayload.equals(PDF)).toBe(true);
    // An image named .pdf is stored as the image it is.
    const img = await technician.post(`/api/calibrations/${id}/certificate`, {
      file_name: 'scan.pdf',
      content_base64: PNG.toString('base64'),
    });
    expect(img.json().calibration.certificate).toMatchObject({ file_name: 'scan.png', content_type: 'image/png' });
    expect((await technician.get(`/api/calibrations/${id}/certificate`)).headers['content-type']).toBe('image/png');
    expect(
      (await rows(lab.database, 'SELECT id FROM equipment_files WHERE organization_id = ?', lab.organizationId)).length,
    ).toBeGreaterThan(0);
    const other = await otherLabAdmin(lab);
    expect((await other.admin.get(`/api/calibrations/${id}/certificate`)).statusCode).toBe(404);
  });

  it('refuses by content what is not a PDF or an image, and files over 5 MB', async () => {
    const id = await completedCalibration();
    const fakes = [
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      Buffer.from('<html><body>certificate</body></html>'),
      Buffer.from('MZ\x90\x00 not a pdf'),
    ];
    for (const f of fakes) {
      const res = await technician.post(`/api/calibrations/${id}/certificate`, {
        file_name: 'certificate.pdf',
        content_base64: f.toString('base64'),
      });
      expect(badFields(res)).toEqual(['content_base64']);
    }
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await technician.post(`/api/calibrations/${id}/certificate`, {
      file_name: 'big.pdf',
      content_base64: big.toString('base64'),
    });
    expect(badFields(res)).toEqual(['content_base64']);
    expect(
      badFields(
        await technician.post(`/api/calibrations/${id}/certificate`, { file_name: 'x.pdf', content_base64: '@@@' }),
      ),
    ).toEqual(['content_base64']);
    expect((await technician.get(`/api/calibrations/${id}/certificate`)).statusCode).toBe(404);
  });
});

describe('maintenance', () => {
  it('schedules, records the work with its cost, and reports by month, equipment and technician (table, CSV, PDF)', async () => {
    const m = await register(lab.admin, { name: `Centrifuge ${uniqueWord()}` });
    const today = localDate(TZ);
    const a = (
      await technician.post('/api/maintenance', {
        equipment_id: m.id,
        type: 'Preventive',
        due_date: today,
        interval_days: 90,
      })
    ).json().maintenance;
    const b = (
      await technician.post('/api/maintenance', {
        equipment_id: m.id,
        type: 'Corrective',
        due_date: addDays(today, -3),
      })
    ).json().maintenance;
    expect(b.status).toBe('overdue');
    const bad = await technician.post(`/api/maintenance/${a.id}/complete`, { performed_by: 'Suresh', cost: -5 });
    expect(badFields(bad)).toEqual(['cost']);
    const done = await technician.post(`/api/maintenance/${a.id}/complete`, {
      performed_by: 'Suresh',
      cost: 1250.5,
      description: 'Brushes replaced',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().maintenance).toMatchObject({ status: 'completed', cost: 1250.5, next_due: addDays(today, 90) });
    expect(done.json().next).toMatchObject({ due_date: addDays(today, 90), status: 'scheduled' });

    const summary = (await lab.admin.get('/api/maintenance/summary')).json().summary;
    expect(summary.overdue).toBeGreaterThanOrEqual(1);
    expect(summary.cost_this_month).toBeGreaterThanOrEqual(1250.5);

    const report = async (kind: string) =>
      (await lab.admin.get(`/api/maintenance/reports/${kind}?to=${addDays(today, 100)}`)).json().report;
    const byEquipment = (await report('equipment')).rows.find((r: { key: string }) => r.key === String(m.id));
    expect(byEquipment).toMatchObject({ records: 3, completed: 1, open: 2, overdue: 1, cost: 1250.5 });
    const byTech = (await report('technician')).rows.find((r: { key: string }) => r.key === 'Suresh');
    expect(byTech).toMatchObject({ records: 1, completed: 1, cost: 1250.5 });
    const monthly = await report('monthly');
    expect(monthly.rows.find((r: { key: string }) => r.key === today.slice(0, 7)).cost).toBeGreaterThanOrEqual(1250.5);

    const csv = await lab.admin.get(`/api/maintenance/reports/equipment/csv?to=${addDays(today, 100)}`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Equipment,Records,Completed,Open,Overdue,Cancelled,Cost (INR)');
    expect(csv.body).toContain(`${m.name} (${m.serial_number}),3,1,2,1,0,1250.50`);
    const pdf = await lab.admin.get('/api/maintenance/reports/technician/pdf');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(badFields(await lab.admin.get('/api/maintenance/reports/weekly'))).toEqual(['report']);
    expect(badFields(await lab.admin.get('/api/maintenance/reports/monthly?from=2026-05-01&to=2026-04-01'))).toEqual([
      'from',
    ]);

    const eq = (await lab.admin.get(`/api/equipment/${m.id}`)).json<{ equipment: Equipment }>().equipment;
    expect(eq).toMatchObject({ next_maintenance: addDays(today, -3), maintenance_overdue: true });
    expect(eq.last_maintenance).not.toBeNull();
  });

  it('the summary cards count from the register', async () => {
    const s = (await lab.admin.get('/api/equipment/summary?kind=instrument')).json<{ summary: EquipmentSummary }>()
      .summary;
    expect(s.total).toBe(Object.values(s.by_status).reduce((a, b) => a + b, 0));
    expect(s.window_days).toBe(7);
    expect(badFields(await lab.admin.get('/api/equipment/summary?kind=robot'))).toEqual(['kind']);
  });
});
