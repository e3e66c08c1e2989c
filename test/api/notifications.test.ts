import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, makeLab, type Client, type TestLab } from '../helpers.js';
import type { Actor } from '../../src/core/context.js';
import { notify } from '../../src/core/notifications/notify.js';
import { sweepOverdueBills } from '../../src/core/billing/overdue.js';
import { startServerJobs } from './jobs-support.js';
import { moveSample } from '../../src/core/samples/service.js';
import { addDays, localDate } from '../../src/shared/time.js';
import type { Notification, NotificationPage, NotificationSummary } from '../../src/shared/schemas/notifications.js';
import { otherLabAdmin, uniqueWord } from './support.js';
import { ENGINE } from '../db.js';
import { sql } from 'kysely';

let lab: TestLab;
let tech: Client;
let validator: Client;
let manager: Client;
let receptionist: Client;
let billing: Client;
let collector: Client;
let doctor: Client;
let fbs: number;

beforeAll(async () => {
  lab = await makeLab();
  const res = await lab.admin.post('/api/tests', {
    name: 'Fasting Blood Sugar',
    code: 'FBS',
    price: 100,
    unit: 'mg/dL',
    normal_range: '70-110',
    reference_ranges: [{ range: '70-110', critical_low: 40, critical_high: 400 }],
  });
  expect(res.statusCode, res.body).toBe(201);
  fbs = res.json().test.id;
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
  manager = await lab.as('lab_manager');
  receptionist = await lab.as('receptionist');
  billing = await lab.as('billing_staff');
  collector = await lab.as('collector');
  doctor = await lab.as('doctor');
});
afterAll(() => lab.close());

/** A new patient with a name no other test uses (the notification text names the patient). */
async function patient(): Promise<{ id: number; name: string }> {
  const first = uniqueWord('Pn');
  const last = uniqueWord('Ql');
  const res = await lab.admin.post('/api/patients', {
    first_name: first,
    last_name: last,
    date_of_birth: '1980-03-01',
    gender: 'Female',
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().patient.id, name: `${first} ${last}` };
}

async function collect(patientId: number, extra: Record<string, unknown> = {}) {
  const res = await lab.admin.post('/api/samples', {
    patient_id: patientId,
    sample_type: 'Blood',
    test_ids: [fbs],
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().sample as { id: number; sample_id: string };
}

async function enter(as: Client, sampleId: number, value: string) {
  const res = await as.post('/api/test-results', { sample_id: sampleId, test_id: fbs, result_value: value });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result as { id: number };
}

async function page(as: Client, query = ''): Promise<NotificationPage> {
  const res = await as.get(`/api/notifications${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationPage>();
}

/** The user's notifications that mention a text (a sample code, a bill number). */
async function about(as: Client, text: string): Promise<Notification[]> {
  return (await page(as, '?limit=200')).notifications.filter((n) => n.message.includes(text));
}

/**
 * The notifications about one bill. Not a plain text search: the second bill of a minute is the
 * first one's number with -2 after it (OPB202611261636 and OPB202611261636-2).
 */
async function aboutBill(as: Client, billNumber: string): Promise<Notification[]> {
  return (await page(as, '?limit=200')).notifications.filter((n) => n.message.includes(`bill ${billNumber},`));
}

async function summary(as: Client): Promise<NotificationSummary> {
  const res = await as.get('/api/notifications/summary');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().summary;
}

async function setPush(on: boolean, organizationId = lab.organizationId) {
  const db = lab.database.db;
  const org = await db
    .selectFrom('organizations')
    .select('settings')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const settings = { ...(JSON.parse(org.settings) as Record<string, unknown>), pushNotifications: on };
  await db
    .updateTable('organizations')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', organizationId)
    .execute();
}

async function rowsFor(userId: number): Promise<number> {
  const r = await lab.database.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const actorOf = (c: Client, role: Actor['role']): Actor => ({
  userId: c.userId,
  email: c.email,
  role,
  organizationId: lab.organizationId,
});

describe('a critical result', () => {
  it('is announced to validators and lab managers (high priority, naming patient and test), not to the desk or the technician', async () => {
    const p = await patient();
    const s = await collect(p.id);
    const inactive = await lab.as('validator');
    expect((await lab.admin.delete(`/api/users/${inactive.userId}`)).statusCode).toBe(200);
    await enter(tech, s.id, '452');

    for (const who of [validator, manager, lab.admin]) {
      const mine = await about(who, s.sample_id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        kind: 'critical_result',
        type: 'error',
        priority: 'high',
        system: false,
        read: false,
        read_at: null,
        title: 'Critical result: Fasting Blood Sugar',
        link: `/result-validation?search=${s.sample_id}`,
      });
      expect(mine[0]!.message).toContain(p.name);
    }
    for (const who of [receptionist, billing, collector, doctor, tech])
      expect(await about(who, s.sample_id)).toEqual([]);
    expect(await rowsFor(inactive.userId)).toBe(0);
  });

  it('an entry that fails after the notification was written leaves neither the result nor the notification', async () => {
    const s = await collect((await patient()).id);
    const db = lab.database.db;
    // The entry writes the result, then the notification, then moves the sample to processing:
    // make that last write fail, inside the same transaction.
    if (ENGINE === 'postgres') {
      await sql
        .raw(
          `CREATE FUNCTION lims_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
           CREATE TRIGGER lims_test_refuse BEFORE UPDATE ON samples FOR EACH ROW WHEN (NEW.id = ${s.id}) EXECUTE FUNCTION lims_test_refuse()`,
        )
        .execute(db);
    } else {
      await sql
        .raw(
          `CREATE TRIGGER lims_test_refuse BEFORE UPDATE ON samples FOR EACH ROW WHEN NEW.id = ${s.id} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
        )
        .execute(db);
    }
    try {
      const res = await tech.post('/api/test-results', { sample_id: s.id, test_id: fbs, result_value: '460' });
      expect(res.statusCode).toBe(500);
    } finally {
      await sql.raw('DROP TRIGGER lims_test_refuse' + (ENGINE === 'postgres' ? ' ON samples' : '')).execute(db);
      if (ENGINE === 'postgres') await sql.raw('DROP FUNCTION lims_test_refuse()').execute(db);
    }
    const left = await db
      .selectFrom('notifications')
      .select('id')
      .where('message', 'like', `%${s.sample_id}%`)
      .execute();
    expect(left).toEqual([]);
    expect(await db.selectFrom('test_results').select('id').where('sample_id', '=', s.id).execute()).toEqual([]);
    // The same entry, nothing refused: the notification is written.
    await enter(tech, s.id, '460');
    expect(await about(validator, s.sample_id)).toHaveLength(1);
  });

  it('a value in range announces nothing; changing an unverified value to a critical one does', async () => {
    const s = await collect((await patient()).id);
    const r = await enter(tech, s.id, '95');
    expect(await about(validator, s.sample_id)).toEqual([]);
    const res = await tech.put(`/api/test-results/${r.id}`, { result_value: '30' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await about(validator, s.sample_id)).map((n) => n.kind)).toEqual(['critical_result']);
  });
});

describe('a rejected sample', () => {
  it('is announced to lab managers and to the collector who drew it, not to validators or the desk', async () => {
    const p = await patient();
    const s = await collect(p.id, { collector_id: collector.userId });
    const res = await tech.put(`/api/samples/${s.id}/status`, { status: 'rejected', notes: 'Haemolysed' });
    expect(res.statusCode, res.body).toBe(200);
    for (const who of [manager, collector]) {
      const mine = await about(who, s.sample_id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        kind: 'sample_rejected',
        type: 'warning',
        priority: 'medium',
        title: `Sample rejected: ${s.sample_id}`,
        link: `/samples?search=${s.sample_id}`,
      });
      expect(mine[0]!.message).toContain('Haemolysed');
      expect(mine[0]!.message).toContain(p.name);
    }
    for (const who of [validator, receptionist, tech, billing]) expect(await about(who, s.sample_id)).toEqual([]);
  });

  it('a rejection rolled back leaves neither the rejection nor a notification', async () => {
    const s = await collect((await patient()).id, { collector_id: collector.userId });
    await expect(
      lab.database.db.transaction().execute(async (trx) => {
        await moveSample(trx, actorOf(tech, 'lab_technician'), s.id, { status: 'rejected', notes: 'Clotted' });
        throw new Error('the rest of the work failed');
      }),
    ).rejects.toThrow('the rest of the work failed');
    expect((await lab.admin.get(`/api/samples/${s.id}`)).json().sample.status).toBe('collected');
    const left = await lab.database.db
      .selectFrom('notifications')
      .select('id')
      .where('message', 'like', `%${s.sample_id}%`)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('a result amended after verification', () => {
  it('is announced to validators, lab managers and the referring doctor of the bill, not to the desk', async () => {
    const p = await patient();
    const bill = await lab.admin.post('/api/bills', {
      patient_id: p.id,
      doctor_id: doctor.userId,
      items: [{ item_type: 'test', item_id: fbs }],
    });
    expect(bill.statusCode, bill.body).toBe(201);
    const s = await collect(p.id, { bill_id: bill.json().bill.id });
    const r = await enter(tech, s.id, '98');
    expect((await validator.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(200);
    expect(await about(doctor, s.sample_id)).toEqual([]);

    const res = await tech.put(`/api/test-results/${r.id}`, { result_value: '105', reason: 'Transcription error' });
    expect(res.statusCode, res.body).toBe(200);
    for (const who of [validator, manager, doctor]) {
      const mine = await about(who, s.sample_id);
      expect(mine.map((n) => [n.kind, n.type, n.priority])).toEqual([['result_amended', 'warning', 'high']]);
      expect(mine[0]!.message).toContain('Transcription error');
      expect(mine[0]!.link).toBe(`/result-validation?search=${s.sample_id}`);
    }
    for (const who of [receptionist, billing, tech]) expect(await about(who, s.sample_id)).toEqual([]);
  });
});

describe('reading notifications', () => {
  it('lists newest first with paging, filters by read, type and priority, counts unread, and marks one or all read', async () => {
    const me = await lab.as('receptionist');
    const db = lab.database.db;
    const events = [
      { kind: 'import_finished', what: 'Patients', rows: 12, startedBy: me.userId },
      { kind: 'import_failed', what: 'Tests', error: 'Line 4: price missing', startedBy: me.userId },
      { kind: 'import_finished', what: 'Doctors', rows: 1, startedBy: me.userId },
    ] as const;
    for (const e of events) await notify(db, lab.organizationId, e);

    const all = await page(me, '?limit=2');
    expect(all).toMatchObject({
      total: 3,
      unread: 3,
      totalPages: 2,
      currentPage: 1,
      hasNextPage: true,
      hasPrevPage: false,
    });
    expect(all.notifications.map((n) => n.title)).toEqual(['Import finished: Doctors', 'Import failed: Tests']);
    expect(all.notifications[0]).toMatchObject({ message: '1 record was imported.', type: 'success', system: true });
    expect((await page(me, '?limit=2&page=2')).notifications.map((n) => n.title)).toEqual([
      'Import finished: Patients',
    ]);
    expect((await page(me, '?type=error')).notifications.map((n) => n.title)).toEqual(['Import failed: Tests']);
    expect((await page(me, '?priority=low')).total).toBe(2);
    expect((await page(me, '?priority=medium&type=error')).total).toBe(1);
    expect((await page(me, '?priority=high')).total).toBe(0);
    expect(await summary(me)).toEqual({
      total: 3,
      unread: 3,
      high_priority: 0,
      high_priority_unread: 0,
      system_alerts: 1,
      system_alerts_unread: 1,
    });

    const failed = all.notifications[1]!;
    const read = await me.put(`/api/notifications/${failed.id}/read`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().unread).toBe(2);
    expect(read.json().notification).toMatchObject({ id: failed.id, read: true });
    const readAt = read.json().notification.read_at as string;
    expect(Date.parse(readAt)).toBeGreaterThan(0);
    // Again: still read, the first time kept.
    expect((await me.put(`/api/notifications/${failed.id}/read`)).json().notification.read_at).toBe(readAt);

    expect((await page(me, '?read=true')).notifications.map((n) => n.id)).toEqual([failed.id]);
    expect((await page(me, '?read=false')).total).toBe(2);
    expect((await page(me, '?read=all')).total).toBe(3);
    expect((await page(me, '?read=false&type=error')).total).toBe(0);
    expect(await summary(me)).toMatchObject({ total: 3, unread: 2, system_alerts: 1, system_alerts_unread: 0 });

    const allRead = await me.post('/api/notifications/read-all');
    expect(allRead.statusCode, allRead.body).toBe(200);
    expect(allRead.json()).toEqual({ updated: 2, unread: 0 });
    expect((await page(me)).unread).toBe(0);
    expect((await page(me, '?read=false')).total).toBe(0);
    expect((await me.post('/api/notifications/read-all')).json()).toEqual({ updated: 0, unread: 0 });
  });

  it('High Priority counts high ones; a backup failure is a system alert for admins', async () => {
    const admin2 = await lab.as('admin');
    await notify(lab.database.db, lab.organizationId, { kind: 'backup_failed', error: 'disk full' });
    const mine = await page(admin2);
    expect(mine.notifications.map((n) => [n.title, n.type, n.priority, n.system, n.link])).toEqual([
      ['Backup failed', 'error', 'high', true, null],
    ]);
    expect(await summary(admin2)).toEqual({
      total: 1,
      unread: 1,
      high_priority: 1,
      high_priority_unread: 1,
      system_alerts: 1,
      system_alerts_unread: 1,
    });
    // Not for those without system_settings.
    expect((await page(manager)).notifications.some((n) => n.kind === 'backup_failed')).toBe(false);
  });

  it("another user's notification answers 404 and stays unread", async () => {
    const mine = (await about(validator, ''))[0]!;
    const res = await receptionist.put(`/api/notifications/${mine.id}/read`);
    expect(res.statusCode).toBe(404);
    expect((await receptionist.put('/api/notifications/99999999/read')).statusCode).toBe(404);
    const after = (await page(validator, '?limit=200')).notifications.find((n) => n.id === mine.id);
    expect(after?.read).toBe(false);
  });

  it('every bad input is a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['?page=0', 'page'],
      ['?page=abc', 'page'],
      ['?limit=500', 'limit'],
      ['?limit=0x10', 'limit'],
      ['?read=maybe', 'read'],
      ['?read=1', 'read'],
      ['?type=critical', 'type'],
      ['?priority=urgent', 'priority'],
    ];
    for (const [query, field] of cases) {
      const res = await validator.get(`/api/notifications${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details[0].path, query).toBe(field);
      expect(res.json().message, query).toContain(field);
    }
    const badId = await validator.put('/api/notifications/abc/read');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().details[0].path).toBe('id');
  });

  it('needs a signed-in user', async () => {
    expect((await lab.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
    expect((await lab.app.inject({ method: 'GET', url: '/api/notifications/summary' })).statusCode).toBe(401);
    expect((await lab.app.inject({ method: 'POST', url: '/api/notifications/read-all' })).statusCode).toBe(401);
  });
});

describe('the lab setting pushNotifications', () => {
  it('off: events write no notification (the recipients are still named for other channels); on again: they do', async () => {
    await setPush(false);
    try {
      const s = await collect((await patient()).id);
      await enter(tech, s.id, '455');
      expect(await about(validator, s.sample_id)).toEqual([]);
      expect(await about(manager, s.sample_id)).toEqual([]);
      const direct = await notify(lab.database.db, lab.organizationId, { kind: 'backup_failed', error: 'off test' });
      expect(direct.notifications).toEqual([]);
      expect(direct.recipients.map((r) => r.email)).toContain(ADMIN_EMAIL);
    } finally {
      await setPush(true);
    }
    const s = await collect((await patient()).id);
    await enter(tech, s.id, '456');
    expect(await about(validator, s.sample_id)).toHaveLength(1);
  });
});

describe('labs are apart', () => {
  it("another lab's staff never see this lab's notifications, nor read them", async () => {
    const db = lab.database.db;
    const { organizationId, admin: otherAdmin } = await otherLabAdmin(lab);
    const org = { id: organizationId };

    // An event of this lab reaches this lab's admins only; one of the other lab, only theirs.
    await notify(db, lab.organizationId, { kind: 'backup_failed', error: 'this lab' });
    await notify(db, org.id, { kind: 'backup_failed', error: 'other lab' });
    const theirs = await page(otherAdmin);
    expect(theirs.notifications.map((n) => n.message)).toEqual(['The automatic backup did not complete: other lab']);
    expect(theirs.total).toBe(1);
    expect((await about(lab.admin, 'other lab')).length).toBe(0);
    const ours = (await about(lab.admin, 'this lab'))[0]!;
    expect((await otherAdmin.put(`/api/notifications/${ours.id}/read`)).statusCode).toBe(404);
    const rows = await db
      .selectFrom('notifications')
      .select('organization_id')
      .where('user_id', '=', otherAdmin.userId)
      .execute();
    expect(rows).toEqual([{ organization_id: org.id }]);
  });
});

describe('overdue bills', () => {
  async function bill(dueDaysAgo: number, opts: { pay?: number | 'all'; cancel?: boolean } = {}) {
    const p = await patient();
    const res = await lab.admin.post('/api/bills', { patient_id: p.id, items: [{ item_type: 'test', item_id: fbs }] });
    expect(res.statusCode, res.body).toBe(201);
    const b = res.json().bill as { id: number; bill_number: string; final_amount: number };
    if (opts.pay) {
      const amount = opts.pay === 'all' ? b.final_amount : opts.pay;
      const paid = await lab.admin.post(`/api/bills/${b.id}/payments`, { amount, method: 'cash' });
      expect(paid.statusCode, paid.body).toBe(201);
    }
    if (opts.cancel) {
      await lab.database.db
        .updateTable('bills')
        .set({ cancelled_at: new Date().toISOString(), cancel_reason: 'Duplicate' })
        .where('id', '=', b.id)
        .execute();
    }
    const today = localDate('Asia/Kolkata');
    await lab.database.db
      .updateTable('bills')
      .set({ due_date: addDays(today, -dueDaysAgo) })
      .where('id', '=', b.id)
      .execute();
    return { ...b, patient: p.name };
  }

  it('the sweep announces each overdue bill once to billing staff; paid, cancelled, not yet due and long-past bills are left out', async () => {
    const overdue = await bill(2);
    const partly = await bill(1, { pay: 10 });
    const paid = await bill(3, { pay: 'all' });
    const cancelled = await bill(3, { cancel: true });
    const notYet = await bill(0);
    const ancient = await bill(45);
    const paidBill = (await lab.admin.get(`/api/bills/${paid.id}`)).json().bill;
    expect(paidBill.status).toBe('paid');

    const first = await sweepOverdueBills(lab.database.db);
    expect(first).toBeGreaterThanOrEqual(2);
    for (const b of [overdue, partly]) {
      const mine = await aboutBill(billing, b.bill_number);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        kind: 'bill_overdue',
        type: 'warning',
        priority: 'low',
        title: `Bill overdue: ${b.bill_number}`,
        link: `/bills-list?search=${b.bill_number}`,
      });
      expect(mine[0]!.message).toContain(b.patient);
      expect(await aboutBill(lab.admin, b.bill_number)).toHaveLength(1);
    }
    expect((await aboutBill(billing, partly.bill_number))[0]!.message).toContain('₹');
    for (const b of [paid, cancelled, notYet, ancient]) expect(await aboutBill(billing, b.bill_number)).toEqual([]);
    for (const who of [receptionist, manager, validator]) expect(await aboutBill(who, overdue.bill_number)).toEqual([]);

    // Idempotent: the next sweeps write nothing more, even after the first is read.
    await billing.post('/api/notifications/read-all');
    expect(await sweepOverdueBills(lab.database.db)).toBe(0);
    expect(await sweepOverdueBills(lab.database.db)).toBe(0);
    expect(await aboutBill(billing, overdue.bill_number)).toHaveLength(1);
    // A billing clerk who joins later is not told of bills already announced.
    const newcomer = await lab.as('billing_staff');
    expect(await sweepOverdueBills(lab.database.db)).toBe(0);
    expect(await aboutBill(newcomer, overdue.bill_number)).toEqual([]);
  });

  it('with pushNotifications off the sweep writes nothing; turned on, the bill is announced then', async () => {
    const b = await bill(1);
    await setPush(false);
    try {
      expect(await sweepOverdueBills(lab.database.db)).toBe(0);
      expect(await aboutBill(billing, b.bill_number)).toEqual([]);
    } finally {
      await setPush(true);
    }
    expect(await sweepOverdueBills(lab.database.db)).toBeGreaterThan(0);
    expect(await aboutBill(billing, b.bill_number)).toHaveLength(1);
  });

  it("lims serve's timer runs the sweep by itself, and stops", async () => {
    const b = await bill(2);
    const { scheduler, errors } = startServerJobs(lab.database, ['overdue-sweep']);
    try {
      await expect.poll(async () => (await aboutBill(billing, b.bill_number)).length, { timeout: 5000 }).toBe(1);
    } finally {
      await scheduler.stop();
    }
    expect(errors).toEqual([]);
    // Stopped: a bill overdue now is not announced until the next sweep.
    const later = await bill(2);
    await new Promise((r) => setTimeout(r, 200));
    expect(await aboutBill(billing, later.bill_number)).toEqual([]);
  });
});

describe('the bell poll', () => {
  it('does not count as activity: the idle timeout still ends a session only the bell is using', async () => {
    const me = await lab.as('validator');
    const db = lab.database.db;
    const session = () =>
      db.selectFrom('sessions').select('last_seen_at').where('user_id', '=', me.userId).executeTakeFirstOrThrow();
    const setLastSeen = (minutesAgo: number) =>
      db
        .updateTable('sessions')
        .set({ last_seen_at: new Date(Date.now() - minutesAgo * 60_000).toISOString() })
        .where('user_id', '=', me.userId)
        .execute();

    await setLastSeen(10);
    const before = (await session()).last_seen_at;
    expect((await me.get('/api/notifications/summary')).statusCode).toBe(200);
    expect((await session()).last_seen_at).toBe(before);
    // Any other request is the user's activity.
    expect((await me.get('/api/notifications')).statusCode).toBe(200);
    expect(Date.parse((await session()).last_seen_at)).toBeGreaterThan(Date.parse(before));

    await setLastSeen(31);
    expect((await me.get('/api/notifications/summary')).statusCode).toBe(401);
  });
});
