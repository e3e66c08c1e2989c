import type { AppOptions } from '../src/server/types.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database_ } from '../src/core/db/connection.js';
import { openTestDatabase } from './db.js';
import { setupLab } from '../src/core/setup/service.js';
import { createUser } from '../src/core/users/service.js';
import { systemActor } from '../src/core/context.js';
import { buildApp } from '../src/server/app.js';
import type { LoggerOption } from '../src/server/logging.js';
import type { Role } from '../src/shared/roles.js';

export const ADMIN_EMAIL = 'admin@lab.test';
export const PASSWORD = 'correct-horse-9';

export function tempDir(prefix = 'lims-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The text of a PDF (a response's payload or bytes), laid out as printed: `pdftotext -layout`. */
export function pdfText(pdf: Buffer | Uint8Array | { rawPayload: Buffer }): string {
  const file = join(tempDir('lims-pdf-'), 'doc.pdf');
  writeFileSync(file, 'rawPayload' in pdf ? pdf.rawPayload : pdf);
  return execFileSync('pdftotext', ['-layout', file, '-']).toString();
}

export interface TestLab {
  app: FastifyInstance;
  database: Database_;
  organizationId: number;
  /** Signs in a new user of the given role and returns a request helper carrying their cookie. */
  as(role: Role): Promise<Client>;
  admin: Client;
  close(): Promise<void>;
}

export interface Client {
  cookie: string;
  userId: number;
  email: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

let counter = 0;

/** `lab`: the domain of the lab to sign in to, when it is not the server's first. */
export async function login(app: FastifyInstance, email: string, password: string, lab?: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password, ...(lab ? { lab } : {}) },
  });
  if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'lims_session');
  if (!cookie) throw new Error('no session cookie');
  return `lims_session=${cookie.value}`;
}

export function client(app: FastifyInstance, cookie: string, userId: number, email: string): Client {
  // As a browser does, a renewed session (a new cookie value) is sent from then on; a cleared one is not.
  const send = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: { cookie },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    const renewed = res.cookies.find((c) => c.name === 'lims_session' && c.value);
    if (renewed) cookie = `lims_session=${renewed.value}`;
    return res;
  };
  return {
    get cookie() {
      return cookie;
    },
    userId,
    email,
    get: (url) => send('GET', url),
    post: (url, body) => send('POST', url, body),
    put: (url, body) => send('PUT', url, body),
    delete: (url) => send('DELETE', url),
  };
}

/** A fresh lab on a fresh database file, with a signed-in superadmin. */
export async function makeLab(
  opts: { demo?: boolean; logger?: LoggerOption; logRequests?: boolean } & Partial<
    Pick<
      AppOptions,
      | 'trustProxy'
      | 'secureCookies'
      | 'allowedHosts'
      | 'listenHost'
      | 'publicRequestsPerMinute'
      | 'uiDir'
      | 'dropRoot'
      | 'allowPrivateOutbound'
      | 'dataDir'
      | 'uploadLimits'
      | 'jobStatus'
    >
  > = {},
): Promise<TestLab> {
  const database = await openTestDatabase(tempDir());
  const { organizationId, adminId } = await setupLab(database.db, {
    labName: 'Test Lab',
    adminName: 'Asha Admin',
    adminEmail: ADMIN_EMAIL,
    adminPassword: PASSWORD,
    timezone: 'Asia/Kolkata',
    currency: 'INR',
    dateFormat: 'DD/MM/YYYY',
    importSampleTests: false,
    importSampleProfiles: false,
    importSamplePackages: false,
  });
  const app = await buildApp({
    database,
    demo: opts.demo ?? false,
    logger: opts.logger ?? false,
    logRequests: opts.logRequests ?? false,
    trustProxy: opts.trustProxy,
    secureCookies: opts.secureCookies,
    allowedHosts: opts.allowedHosts,
    listenHost: opts.listenHost,
    publicRequestsPerMinute: opts.publicRequestsPerMinute,
    uiDir: opts.uiDir,
    dropRoot: opts.dropRoot,
    allowPrivateOutbound: opts.allowPrivateOutbound,
    dataDir: opts.dataDir,
    uploadLimits: opts.uploadLimits,
    jobStatus: opts.jobStatus,
  });
  await app.ready();
  const admin = client(app, await login(app, ADMIN_EMAIL, PASSWORD), adminId, ADMIN_EMAIL);
  return {
    app,
    database,
    organizationId,
    admin,
    async as(role: Role) {
      counter += 1;
      const email = `${role}.${counter}.${Date.now()}@lab.test`;
      const user = await createUser(database.db, systemActor(organizationId), {
        first_name: role,
        last_name: `User${counter}`,
        email,
        role,
        password: PASSWORD,
      });
      return client(app, await login(app, email, PASSWORD), user.id, email);
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
