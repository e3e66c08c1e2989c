import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { rows } from '../db.js';

let lab: TestLab;
beforeAll(async () => {
  lab = await makeLab();
});
afterAll(() => lab.close());

const SPEC_DEFAULTS = {
  timezone: 'Asia/Kolkata',
  dateFormat: 'DD/MM/YYYY',
  currency: 'INR',
  emailNotifications: true,
  smsNotifications: false,
  pushNotifications: true,
  reportNotifications: true,
  sessionTimeout: 30,
  // The Users screen's "login attempts"; the spec's mock-up shows 5.
  maxLoginAttempts: 5,
  passwordPolicy: 'strong',
  twoFactorAuth: false,
  auditLogging: true,
  backupFrequency: 'daily',
  backupRetention: 30,
  autoBackup: true,
  maintenanceMode: false,
  debugMode: false,
  autoUpdate: false,
};

const settingsOf = async () => (await lab.admin.get('/api/settings')).json().settings as Record<string, unknown>;

describe('System Settings', () => {
  it('answers every field of the spec, with the spec’s defaults and the lab’s own details', async () => {
    const res = await lab.admin.get('/api/settings');
    expect(res.statusCode).toBe(200);
    const { settings } = res.json();
    expect(Object.keys(settings).sort()).toEqual(
      [...Object.keys(SPEC_DEFAULTS), 'labName', 'labAddress', 'labPhone', 'labEmail'].sort(),
    );
    expect(settings).toMatchObject({ ...SPEC_DEFAULTS, labName: 'Test Lab' });
  });

  it('saves changes, audits each field’s old and new value, and answers what was saved', async () => {
    const res = await lab.admin.put('/api/settings', {
      labName: 'Lotus Diagnostics',
      labAddress: '12 MG Road, Bengaluru 560001',
      timezone: 'Europe/London',
      dateFormat: 'YYYY-MM-DD',
      sessionTimeout: '60',
      somethingElse: 'ignored',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toMatchObject({
      labName: 'Lotus Diagnostics',
      labAddress: '12 MG Road, Bengaluru 560001',
      timezone: 'Europe/London',
      dateFormat: 'YYYY-MM-DD',
      sessionTimeout: 60,
    });
    expect(await settingsOf()).toMatchObject({ labName: 'Lotus Diagnostics', sessionTimeout: 60 });
    const [org] = await rows<{ name: string; timezone: string; date_format: string }>(
      lab.database,
      'SELECT name, timezone, date_format FROM organizations WHERE id = ?',
      lab.organizationId,
    );
    expect(org).toEqual({ name: 'Lotus Diagnostics', timezone: 'Europe/London', date_format: 'YYYY-MM-DD' });
    const audit = await rows<{ old_values: string; new_values: string; user_id: number }>(
      lab.database,
      "SELECT old_values, new_values, user_id FROM audit_log WHERE entity = 'settings' ORDER BY id DESC LIMIT 1",
    );
    expect(JSON.parse(audit[0]!.old_values)).toEqual({
      labName: 'Test Lab',
      labAddress: null,
      timezone: 'Asia/Kolkata',
      dateFormat: 'DD/MM/YYYY',
      sessionTimeout: 30,
    });
    expect(JSON.parse(audit[0]!.new_values)).toEqual({
      labName: 'Lotus Diagnostics',
      labAddress: '12 MG Road, Bengaluru 560001',
      timezone: 'Europe/London',
      dateFormat: 'YYYY-MM-DD',
      sessionTimeout: 60,
    });
    expect(audit[0]!.user_id).toBe(lab.admin.userId);
  });

  it('refuses every bad value with 400 naming the field, and saves nothing of that request', async () => {
    const before = await settingsOf();
    const bad: [Record<string, unknown>, string][] = [
      [{ sessionTimeout: 45 }, 'sessionTimeout'],
      [{ sessionTimeout: 'abc' }, 'sessionTimeout'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ timezone: '' }, 'timezone'],
      [{ dateFormat: 'DD-MM-YY' }, 'dateFormat'],
      [{ currency: 'JPY' }, 'currency'],
      [{ passwordPolicy: 'weak' }, 'passwordPolicy'],
      [{ backupFrequency: 'yearly' }, 'backupFrequency'],
      [{ backupRetention: 14 }, 'backupRetention'],
      [{ emailNotifications: 'yes' }, 'emailNotifications'],
      [{ maintenanceMode: 1 }, 'maintenanceMode'],
      [{ auditLogging: false }, 'auditLogging'],
      [{ autoUpdate: true }, 'autoUpdate'],
      [{ twoFactorAuth: true }, 'twoFactorAuth'],
      [{ labName: '   ' }, 'labName'],
      [{ labEmail: 'not-an-email' }, 'labEmail'],
      [{ labPhone: 'call me' }, 'labPhone'],
    ];
    for (const [body, field] of bad) {
      const res = await lab.admin.put('/api/settings', { labName: 'Changed Name', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const details = res.json().details as { path: string; message: string }[];
      expect(
        details.map((d) => d.path),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await settingsOf()).toEqual(before);
  });

  it('explains why audit logging and automatic updates cannot be switched', async () => {
    const audit = (await lab.admin.put('/api/settings', { auditLogging: false })).json();
    expect(JSON.stringify(audit.details)).toContain('audit trail');
    const update = (await lab.admin.put('/api/settings', { autoUpdate: true })).json();
    expect(JSON.stringify(update.details)).toContain('internet');
  });

  it('reset restores the spec’s defaults and keeps the lab’s name and contact details', async () => {
    await lab.admin.put('/api/settings', { currency: 'USD', passwordPolicy: 'very-strong', debugMode: true });
    const res = await lab.admin.post('/api/settings/reset');
    expect(res.statusCode).toBe(200);
    expect(res.json().settings).toEqual({
      ...SPEC_DEFAULTS,
      labName: 'Lotus Diagnostics',
      labAddress: '12 MG Road, Bengaluru 560001',
      labPhone: null,
      labEmail: null,
    });
    const audit = await rows<{ new_values: string }>(
      lab.database,
      "SELECT new_values FROM audit_log WHERE entity = 'settings' ORDER BY id DESC LIMIT 1",
    );
    expect(JSON.parse(audit[0]!.new_values)).toMatchObject({ reset: true, currency: 'INR', debugMode: false });
  });

  it('is for admins with system_settings only', async () => {
    for (const role of ['receptionist', 'lab_technician', 'lab_manager'] as const) {
      const user = await lab.as(role);
      expect((await user.get('/api/settings')).statusCode).toBe(403);
      expect((await user.put('/api/settings', { debugMode: true })).statusCode).toBe(403);
      expect((await user.post('/api/settings/reset')).statusCode).toBe(403);
    }
  });
});
