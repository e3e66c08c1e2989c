import { breakAuditInserts, dropAuditGuard, exec, row } from '../db.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { verifyChain } from '../../src/core/audit/audit.js';
import { localDate } from '../../src/shared/time.js';
import type { AuditLog } from '../../src/shared/schemas/audit.js';
import type { User } from '../../src/shared/schemas/users.js';
import {
  auditRowsAfter,
  auditRowsFor,
  createPatient,
  createUserVia,
  lastAuditId,
  patientBody,
  raw,
  userBody,
} from './support.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const UA = 'Mozilla/5.0 (X11; Linux x86_64) ReceptionDesk/1.0';
const json = (v: string | null) => (v === null ? null : (JSON.parse(v) as Record<string, unknown>));

describe('every change is in the audit trail', () => {
  it('creating, updating and deleting a patient each write one row: who, what, old and new values, ip, user agent', async () => {
    const headers = { cookie: lab.admin.cookie, 'user-agent': UA };
    const created = await raw(lab.app, {
      method: 'POST',
      url: '/api/patients',
      headers,
      payload: patientBody({ city: 'Pune' }),
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ patient: { id: number } }>().patient.id;
    await raw(lab.app, { method: 'PUT', url: `/api/patients/${id}`, headers, payload: { city: 'Nashik' } });
    await raw(lab.app, { method: 'DELETE', url: `/api/patients/${id}`, headers });

    const rows = await auditRowsFor(lab, 'patient', id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    for (const r of rows) {
      expect(r).toMatchObject({
        user_id: lab.admin.userId,
        user_email: lab.admin.email,
        organization_id: lab.organizationId,
        ip_address: '127.0.0.1',
        user_agent: UA,
        status: 'success',
      });
      expect(Date.parse(r.created_at)).not.toBeNaN();
    }
    const [create, update, del] = rows;
    expect(json(create!.old_values)).toBeNull();
    expect(json(create!.new_values)).toMatchObject({ id, city: 'Pune' });
    expect(json(update!.old_values)).toEqual({ city: 'Pune' });
    expect(json(update!.new_values)).toEqual({ city: 'Nashik' });
    expect(json(del!.old_values)).toMatchObject({ id, city: 'Nashik' });
    expect(json(del!.new_values)).toBeNull();
  });

  it('creating, updating and deactivating a user each write one row', async () => {
    const user = await createUserVia(lab.admin, { role: 'collector', department: 'Home visits' });
    await lab.admin.put(`/api/users/${user.id}`, { department: 'Ward rounds' });
    await lab.admin.delete(`/api/users/${user.id}`);
    const rows = await auditRowsFor(lab, 'user', user.id);
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'update']);
    expect(json(rows[0]!.new_values)).toMatchObject({
      email: user.email,
      role: 'collector',
      department: 'Home visits',
    });
    expect(json(rows[1]!.old_values)).toEqual({ department: 'Home visits' });
    expect(json(rows[1]!.new_values)).toEqual({ department: 'Ward rounds' });
    expect(json(rows[2]!.new_values)).toEqual({ is_active: 0 });
    for (const r of rows) expect(r.user_id).toBe(lab.admin.userId);
  });

  it('a failed write leaves no row: validation (400), duplicate (409), not found (404), forbidden (403)', async () => {
    const existing = await createUserVia(lab.admin);
    const rec = await lab.as('receptionist');
    const before = await lastAuditId(lab);
    expect((await lab.admin.post('/api/patients', patientBody({ date_of_birth: '2999-01-01' }))).statusCode).toBe(400);
    expect((await lab.admin.post('/api/users', userBody({ email: existing.email }))).statusCode).toBe(409);
    expect((await lab.admin.put('/api/patients/987654', { city: 'X' })).statusCode).toBe(404);
    expect((await rec.post('/api/users', userBody())).statusCode).toBe(403);
    expect(await auditRowsAfter(lab, before)).toEqual([]);
  });

  it('the change and its audit row are stored together or not at all', async () => {
    const own = await makeLab();
    try {
      const before = (await own.admin.get('/api/patients')).json<{ total: number }>().total;
      // Make the audit insert fail: the patient insert in the same transaction must be rolled back.
      const restore = await breakAuditInserts(own.database);
      const res = await own.admin.post('/api/patients', patientBody());
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('audit unavailable');
      const userRes = await own.admin.post('/api/users', userBody());
      expect(userRes.statusCode).toBe(500);
      await restore();
      expect((await own.admin.get('/api/patients')).json<{ total: number }>().total).toBe(before);
      const n = await row<{ n: number }>(own.database, 'SELECT count(*) AS n FROM patients');
      expect(Number(n?.n)).toBe(before);
      expect((await own.admin.get('/api/users')).json<{ users: User[] }>().users).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('sign-ins are recorded, failed ones too, without the password', async () => {
    const user = await createUserVia(lab.admin, { password: 'audited-pass-1' });
    const before = await lastAuditId(lab);
    await raw(lab.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'wrong-guess-1' },
    });
    await raw(lab.app, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'audited-pass-1' },
    });
    const rows = await auditRowsAfter(lab, before);
    expect(rows.map((r) => [r.action, r.status, r.user_id])).toEqual([
      ['login', 'failed', user.id],
      ['login', 'success', user.id],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/wrong-guess|audited-pass/);
  });
});

describe('the trail is append-only and hash-chained', () => {
  it('the database refuses to UPDATE or DELETE an audit row', async () => {
    await createPatient(lab.admin);
    const id = await lastAuditId(lab);
    await expect(exec(lab.database, "UPDATE audit_log SET action = 'create' WHERE id = ?", id)).rejects.toThrow(
      /append-only/,
    );
    await expect(exec(lab.database, 'DELETE FROM audit_log WHERE id = ?', id)).rejects.toThrow(/append-only/);
    await expect(exec(lab.database, 'DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });

  it('verifyChain accepts a normal history', async () => {
    const report = await verifyChain(lab.database.db);
    expect(report).toEqual({ ok: true, checked: await lastAuditId(lab), firstBrokenId: null, reason: null });
  });

  it('verifyChain reports the first altered row', async () => {
    const own = await makeLab();
    try {
      for (let i = 0; i < 3; i += 1) await createPatient(own.admin);
      const target = (await auditRowsAfter(own, 0)).find((r) => r.entity === 'patient')!;
      await dropAuditGuard(own.database, 'update');
      await exec(
        own.database,
        "UPDATE audit_log SET new_values = replace(new_values, 'Pa', 'Pb') WHERE id = ?",
        target.id,
      );
      const report = await verifyChain(own.database.db);
      expect(report).toMatchObject({ ok: false, firstBrokenId: target.id, checked: target.id - 1 });
      expect(report.reason).toMatch(/altered/);
    } finally {
      await own.close();
    }
  });

  it('verifyChain reports the row after a removed one', async () => {
    const own = await makeLab();
    try {
      for (let i = 0; i < 3; i += 1) await createPatient(own.admin);
      const rows = await auditRowsAfter(own, 0);
      const removed = rows[rows.length - 2]!;
      await dropAuditGuard(own.database, 'delete');
      await exec(own.database, 'DELETE FROM audit_log WHERE id = ?', removed.id);
      const report = await verifyChain(own.database.db);
      expect(report).toMatchObject({ ok: false, firstBrokenId: rows[rows.length - 1]!.id });
      expect(report.reason).toMatch(/link/);
    } finally {
      await own.close();
    }
  });
});

describe('GET /api/audit', () => {
  const logsOf = async (query: string) => {
    const res = await lab.admin.get(`/api/audit?limit=200&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ logs: AuditLog[]; total: number }>();
  };

  it('answers {logs, total, ...} newest first, with the user’s name and parsed values', async () => {
    const p = await createPatient(lab.admin);
    const body = await logsOf('');
    expect(body).toMatchObject({ currentPage: 1, hasPrevPage: false });
    expect(body.total).toBeGreaterThanOrEqual(body.logs.length);
    const ids = body.logs.map((l) => l.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const row = body.logs.find((l) => l.entity === 'patient' && l.entity_id === String(p.id));
    expect(row).toMatchObject({ action: 'create', user_name: 'Asha Admin', new_values: { first_name: p.first_name } });
  });

  it('filters by user, action and entity', async () => {
    const rec = await lab.as('receptionist');
    const p = await createPatient(rec);
    await rec.put(`/api/patients/${p.id}`, { city: 'Kochi' });
    const byUser = await logsOf(`user_id=${rec.userId}`);
    expect(byUser.logs.map((l) => [l.action, l.entity])).toEqual([
      ['update', 'patient'],
      ['create', 'patient'],
      ['login', 'session'],
    ]);
    const updates = await logsOf(`user_id=${rec.userId}&action=update`);
    expect(updates.logs.map((l) => l.entity_id)).toEqual([String(p.id)]);
    expect(updates.total).toBe(1);
    const sessions = await logsOf('entity=session');
    expect(sessions.logs.length).toBeGreaterThan(0);
    expect(sessions.logs.every((l) => l.entity === 'session')).toBe(true);
  });

  it('filters by date, from and to inclusive', async () => {
    const rec = await lab.as('receptionist');
    const rows = await logsOf(`user_id=${rec.userId}`);
    // From/To are the lab's calendar days (Asia/Kolkata in makeLab), not UTC days.
    const day = localDate('Asia/Kolkata', new Date(rows.logs[0]!.created_at));
    const prev = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await logsOf(`user_id=${rec.userId}&from=${day}&to=${day}`)).total).toBe(rows.total);
    expect((await logsOf(`user_id=${rec.userId}&from=${prev}&to=${next}`)).total).toBe(rows.total);
    expect((await logsOf(`user_id=${rec.userId}&to=${prev}`)).total).toBe(0);
    expect((await logsOf(`user_id=${rec.userId}&from=${next}`)).total).toBe(0);
  });

  it('names a bad filter', async () => {
    const res = await lab.admin.get('/api/audit?action=explode&from=yesterday');
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json<{ details: { path: string }[] }>()
        .details.map((d) => d.path)
        .sort(),
    ).toEqual(['action', 'from']);
  });

  it('is for users allowed to read the trail: a receptionist gets 403, an admin and a lab manager 200', async () => {
    expect((await (await lab.as('receptionist')).get('/api/audit')).statusCode).toBe(403);
    expect((await (await lab.as('admin')).get('/api/audit')).statusCode).toBe(200);
    expect((await (await lab.as('lab_manager')).get('/api/audit')).statusCode).toBe(200);
  });
});
