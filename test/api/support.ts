/** Factories and small helpers shared by the API tests: unique data per test, typed responses. */
import { row, rows } from '../db.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { client, login, PASSWORD, type Client, type TestLab } from '../helpers.js';
import type { Database_ } from '../../src/core/db/connection.js';
import { createUser } from '../../src/core/users/service.js';
import { systemActor } from '../../src/core/context.js';
import type { Patient, PatientPage } from '../../src/shared/schemas/patients.js';
import type { User } from '../../src/shared/schemas/users.js';
import type { ApiErrorBody } from '../../src/shared/schemas/common.js';
import type { Role } from '../../src/shared/roles.js';
import { localDate as labDate } from '../../src/shared/time.js';

let seq = 0;

/**
 * A word no other test uses, letters only (the patient search indexes words, and a name with digits
 * would also match number searches). Base-26 of a counter plus the process id keeps parallel files apart.
 */
export function uniqueWord(prefix = 'Zx'): string {
  seq += 1;
  let n = seq * 100_003 + (process.pid % 100_000);
  let s = '';
  while (n > 0) {
    s += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  }
  return `${prefix}${s}`;
}

export function uniqueEmail(tag = 'person'): string {
  return `${tag}.${uniqueWord('u').toLowerCase()}@lab.test`;
}

/** A ten-digit Indian mobile number that no other test uses. */
export function uniquePhone(): string {
  seq += 1;
  const tail = String((seq * 7919 + process.pid * 31) % 1_000_000_000).padStart(9, '0');
  return `9${tail}`;
}

export interface PatientBody {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  [field: string]: unknown;
}

export function patientBody(overrides: Partial<PatientBody> = {}): PatientBody {
  return {
    first_name: uniqueWord('Pa'),
    last_name: uniqueWord('Ku'),
    date_of_birth: '1985-06-15',
    gender: 'Male',
    ...overrides,
  };
}

export async function createPatient(as: Client, overrides: Partial<PatientBody> = {}): Promise<Patient> {
  const res = await as.post('/api/patients', patientBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ patient: Patient }>().patient;
}

export interface UserBody {
  first_name: string;
  last_name: string;
  email: string;
  role: Role;
  password: string;
  [field: string]: unknown;
}

export function userBody(overrides: Partial<UserBody> = {}): UserBody {
  return {
    first_name: uniqueWord('Us'),
    last_name: uniqueWord('Er'),
    email: uniqueEmail(),
    role: 'receptionist',
    password: 'a-good-password-1',
    ...overrides,
  };
}

export async function createUserVia(as: Client, overrides: Partial<UserBody> = {}): Promise<User> {
  const res = await as.post('/api/users', userBody(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ user: User }>().user;
}

export function page(res: LightMyRequestResponse): PatientPage {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<PatientPage>();
}

export function ids(p: PatientPage): number[] {
  return p.patients.map((x) => x.id);
}

export function errorBody(res: LightMyRequestResponse): ApiErrorBody {
  return res.json<ApiErrorBody>();
}

/** The field paths a 400 answer names, each once (a field may break more than one rule). */
export function badFields(res: LightMyRequestResponse): string[] {
  expect(res.statusCode, res.body).toBe(400);
  return [...new Set((errorBody(res).details ?? []).map((d) => d.path))];
}

/** Any request, with full control over headers (cookie, origin, content type, user agent). */
export function raw(
  app: FastifyInstance,
  opts: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    headers?: Record<string, string>;
    payload?: string | object;
  },
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: opts.method,
    url: opts.url,
    headers: opts.headers ?? {},
    ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  });
}

export interface AuditRow {
  id: number;
  organization_id: number | null;
  user_id: number | null;
  user_email: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  old_values: string | null;
  new_values: string | null;
  ip_address: string | null;
  user_agent: string | null;
  status: string;
  created_at: string;
  prev_hash: string;
  hash: string;
}

/** Audit rows straight from the table, oldest first. */
export function auditRowsFor(lab: TestLab, entity: string, entityId: number | string): Promise<AuditRow[]> {
  return rows<AuditRow>(
    lab.database,
    'SELECT * FROM audit_log WHERE entity = ? AND entity_id = ? ORDER BY id',
    entity,
    String(entityId),
  );
}

export async function lastAuditId(lab: TestLab): Promise<number> {
  const r = await row<{ id: number }>(lab.database, 'SELECT coalesce(max(id), 0) AS id FROM audit_log');
  return Number(r?.id ?? 0);
}

export function auditRowsAfter(lab: TestLab, id: number): Promise<AuditRow[]> {
  return rows<AuditRow>(lab.database, 'SELECT * FROM audit_log WHERE id > ? ORDER BY id', id);
}

/** YYYY-MM-DD shifted by whole years and days from today on the test lab's calendar (Asia/Kolkata): ages count on it. */
export function localDate(yearsBack: number, dayShift = 0, from = new Date()): string {
  const [y, m, d] = labDate('Asia/Kolkata', from).split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y - yearsBack, m - 1, d + dayShift)).toISOString().slice(0, 10);
}

/** A second lab in the same database, for the tests that prove labs never see each other's rows. */
export async function insertOtherLab(db: Database_['db'], name = 'Other Lab'): Promise<number> {
  const now = new Date().toISOString();
  const org = await db
    .insertInto('organizations')
    .values({
      name,
      // A lab other than the first is signed in to by its domain (at its address or in the lab field).
      domain: `${uniqueWord('other').toLowerCase()}-${process.pid}.other.test`,
      address: null,
      phone: null,
      email: null,
      timezone: 'Asia/Kolkata',
      currency: 'INR',
      date_format: 'DD/MM/YYYY',
      settings: '{}',
      is_demo: 0,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(org.id);
}

/** A second lab and its signed-in admin. */
export async function otherLabAdmin(lab: TestLab): Promise<{ organizationId: number; admin: Client }> {
  const organizationId = await insertOtherLab(lab.database.db);
  const email = uniqueEmail('otheradmin');
  const user = await createUser(lab.database.db, systemActor(organizationId), {
    first_name: 'Olga',
    last_name: 'Other',
    email,
    role: 'admin',
    password: PASSWORD,
  });
  return {
    organizationId,
    admin: client(lab.app, await loginAt(lab, organizationId, email, PASSWORD), user.id, email),
  };
}

/** Signs in to a lab other than the first, naming it by its domain as the sign-in page's lab field does. */
export async function loginAt(lab: TestLab, organizationId: number, email: string, password: string): Promise<string> {
  const org = await lab.database.db
    .selectFrom('organizations')
    .select('domain')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return login(lab.app, email, password, org.domain ?? undefined);
}
