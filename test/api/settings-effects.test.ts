import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { createPatient } from './support.js';

/** What each setting does on the server: a switch that changes nothing is a defect. */

const lines: Record<string, unknown>[] = [];
let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab({
    logger: { stream: { write: (chunk: string) => void lines.push(JSON.parse(chunk) as Record<string, unknown>) } },
  });
});
afterAll(() => lab.close());

const set = async (body: Record<string, unknown>) => {
  const res = await lab.admin.put('/api/settings', body);
  expect(res.statusCode, res.body).toBe(200);
};

describe('maintenance mode', () => {
  it('refuses changes by everyone but administrators with 503 and a message; reads and sign-out go on', async () => {
    const reception = await lab.as('receptionist');
    const before = await createPatient(reception);
    await set({ maintenanceMode: true });
    expect((await lab.admin.get('/api/lab')).json().lab.maintenanceMode).toBe(true);
    expect((await reception.get('/api/lab')).json().lab.maintenanceMode).toBe(true);

    const refused = await reception.post('/api/patients', { first_name: 'Ravi', last_name: 'Kumar', gender: 'Male' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'MAINTENANCE' });
    expect(refused.json().message).toMatch(/maintenance mode/);
    expect((await reception.put(`/api/patients/${before.id}`, { city: 'Mysuru' })).statusCode).toBe(503);
    expect((await reception.get(`/api/patients/${before.id}`)).statusCode).toBe(200);
    expect((await reception.get('/api/patients')).statusCode).toBe(200);

    // An administrator goes on working, and ends it.
    expect((await createPatient(lab.admin)).id).toBeGreaterThan(before.id);
    await set({ maintenanceMode: false });
    expect((await reception.put(`/api/patients/${before.id}`, { city: 'Mysuru' })).statusCode).toBe(200);
    expect((await reception.post('/api/auth/logout')).statusCode).toBe(200);
  });

  it('lets a signed-in user sign out while it is on', async () => {
    const tech = await lab.as('lab_technician');
    await set({ maintenanceMode: true });
    try {
      expect((await tech.post('/api/auth/logout')).statusCode).toBe(200);
      expect((await tech.get('/api/lab')).statusCode).toBe(401);
    } finally {
      await set({ maintenanceMode: false });
    }
  });
});

describe('password policy', () => {
  it('is enforced on every password set or reset, naming each rule broken', async () => {
    const user = (password: string) => ({
      first_name: 'Kiran',
      last_name: 'Shetty',
      email: `kiran.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@lab.test`,
      role: 'receptionist',
      password,
    });
    // strong (the default): 10 characters with a letter and a digit.
    const weak = await lab.admin.post('/api/users', user('password'));
    expect(weak.statusCode).toBe(400);
    const messages = (weak.json().details as { path: string; message: string }[]).map((d) => `${d.path}: ${d.message}`);
    expect(messages).toEqual([
      'password: Password must be at least 10 characters',
      'password: Password must contain a digit (0-9)',
    ]);
    const ok = await lab.admin.post('/api/users', user('frontdesk-2026'));
    expect(ok.statusCode).toBe(201);
    const id = ok.json().user.id as number;

    await set({ passwordPolicy: 'very-strong' });
    const reset = await lab.admin.post(`/api/users/${id}/reset-password`, { password: 'kiranshetty2026' });
    expect(reset.statusCode).toBe(400);
    expect(JSON.stringify(reset.json().details)).toContain('upper-case');
    expect(JSON.stringify(reset.json().details)).toContain('symbol');
    expect(JSON.stringify(reset.json().details)).toContain('must not contain your name');
    expect(
      (await lab.admin.post(`/api/users/${id}/reset-password`, { password: 'Tulip#Garden-2026' })).statusCode,
    ).toBe(200);

    await set({ passwordPolicy: 'basic' });
    expect((await lab.admin.post('/api/users', user('abcdefgh'))).statusCode).toBe(201);
    expect((await lab.admin.post('/api/users', user('abcdefg'))).statusCode).toBe(400);
    await set({ passwordPolicy: 'strong' });
  });
});

describe('session timeout', () => {
  it('ends a session idle longer than the lab’s timeout, on the server', async () => {
    const tech = await lab.as('lab_technician');
    await set({ sessionTimeout: 15 });
    expect((await tech.get('/api/lab')).statusCode).toBe(200);
    // 16 minutes of silence: the session's last activity moved back, as the clock would.
    await lab.database.db
      .updateTable('sessions')
      .set({ last_seen_at: new Date(Date.now() - 16 * 60_000).toISOString() })
      .where('user_id', '=', tech.userId)
      .execute();
    const res = await tech.get('/api/lab');
    expect(res.statusCode).toBe(401);
    await set({ sessionTimeout: 30 });
  });
});

describe('debug mode', () => {
  it('adds a line per request to the server log while on, without the query string', async () => {
    lines.length = 0;
    await lab.admin.get('/api/patients?search=Meenakshi');
    expect(lines.filter((l) => l.msg === 'request (debug mode)')).toEqual([]);
    await set({ debugMode: true });
    await lab.admin.get('/api/patients?search=Meenakshi');
    const debug = lines.filter((l) => l.msg === 'request (debug mode)');
    expect(debug.at(-1)).toMatchObject({ method: 'GET', path: '/api/patients', status: 200, userId: lab.admin.userId });
    expect(JSON.stringify(lines)).not.toContain('Meenakshi');
    await set({ debugMode: false });
    lines.length = 0;
    await lab.admin.get('/api/patients');
    expect(lines.filter((l) => l.msg === 'request (debug mode)')).toEqual([]);
  });
});

describe('the lab’s name, regional settings and currency on what it prints', () => {
  it('a bill PDF carries the new name, address, date format, time zone and currency', async () => {
    const { execFileSync } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers.js');
    const patient = await createPatient(lab.admin);
    const test = await lab.admin.post('/api/tests', {
      name: 'Serum Ferritin',
      code: `FER${Date.now() % 100000}`,
      price: 650,
      sample_type: 'Blood',
    });
    expect(test.statusCode, test.body).toBe(201);
    await set({
      labName: 'Sunrise Diagnostics',
      labAddress: '4 Park Street, Kolkata 700016',
      dateFormat: 'YYYY-MM-DD',
      timezone: 'UTC',
      currency: 'USD',
    });
    try {
      // A bill prints the settings of its issue (a bill issued earlier reprints as it was issued).
      const bill = await lab.admin.post('/api/bills', {
        patient_id: patient.id,
        items: [{ item_type: 'test', item_id: test.json().test.id }],
      });
      expect(bill.statusCode, bill.body).toBe(201);
      const pdf = await lab.admin.get(`/api/bills/${bill.json().bill.id}/pdf`);
      expect(pdf.statusCode).toBe(200);
      const file = join(tempDir(), 'bill.pdf');
      writeFileSync(file, pdf.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
      expect(text).toContain('Sunrise Diagnostics');
      expect(text).toContain('4 Park Street, Kolkata 700016');
      expect(text).toContain('$650.00');
      expect(text).toContain('US Dollars Six Hundred Fifty Only');
      const created = new Date(bill.json().bill.created_at as string);
      expect(text).toContain(created.toISOString().slice(0, 10));
      const lab2 = (await lab.admin.get('/api/lab')).json().lab;
      expect(lab2).toMatchObject({
        name: 'Sunrise Diagnostics',
        dateFormat: 'YYYY-MM-DD',
        timezone: 'UTC',
        currency: 'USD',
      });
    } finally {
      await set({ dateFormat: 'DD/MM/YYYY', timezone: 'Asia/Kolkata', currency: 'INR' });
    }
  });
});
