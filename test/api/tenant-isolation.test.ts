import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { writeFileSync } from 'node:fs';
import { client, makeLab, tempDir, type Client, type TestLab } from '../helpers.js';
import { systemActor } from '../../src/core/context.js';
import { entityNamed, runImport } from '../../src/core/transfer/service.js';
import { logIncomplete } from '../../src/core/interfaces/receive.js';
import { createPatient, createUserVia, localDate, uniqueEmail, uniquePhone, uniqueWord } from './support.js';
import { isFileResponse, routeUrl, type RouteContract } from '../../src/shared/api/contract.js';
import type { IssuedInvitation, Tenant } from '../../src/shared/schemas/tenants.js';
import type { User } from '../../src/shared/schemas/users.js';

/**
 * Isolation is the point of tenants: two labs on one server, each with data of every
 * kind, and every list and get route of the API (enumerated from the contracts in src/shared/api,
 * so a route added later is walked too) called as each lab's admin:
 * - no answer carries a row of the other lab (every row of a lab carries its own marker word);
 * - the other lab's ids and barcodes answer 404;
 * - nothing the other lab writes changes what this lab's routes answer.
 */
let lab: TestLab;

interface Seeded {
  org: number;
  admin: Client;
  marker: string;
  emails: string[];
  ids: {
    patient: number;
    user: number;
    doctor: number;
    test: number;
    profile: number;
    package: number;
    bill: number;
    sample: number;
    barcode: string;
    result: number;
    material: number;
    visit: number;
    item: number;
    supplier: number;
    equipment: number;
    calibration: number;
    maintenance: number;
    payer: number;
    invoice: number;
    payment: number;
    closing: number;
    job: number;
    failedJob: number;
    connection: number;
    message: number;
    ruleSet: number;
    booking: number;
    centre: number;
  };
}

let A: Seeded;
let B: Seeded;

async function json<T>(res: Promise<LightMyRequestResponse>, status = 201): Promise<T> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(status);
  return r.json<T>();
}

/** A lab created by the superadmin, its admin signed in through the invitation link. */
async function newTenant(name: string): Promise<{ org: number; admin: Client; email: string }> {
  const email = uniqueEmail('isoadmin');
  const created = await json<{ tenant: Tenant; invitation: IssuedInvitation }>(
    lab.admin.post('/api/tenants', {
      name,
      domain: `${name.toLowerCase()}-${process.pid}.iso.test`,
      plan: 'professional',
      admin_email: email,
    }),
  );
  const token = created.invitation.path.split('#')[1]!;
  const res = await lab.app.inject({
    method: 'POST',
    url: '/api/invitations/accept',
    payload: { token, password: 'isolation-pass-1' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const user = res.json<{ user: User }>().user;
  const cookie = res.cookies.find((c) => c.name === 'lims_session')!;
  return { org: created.tenant.id, admin: client(lab.app, `lims_session=${cookie.value}`, user.id, email), email };
}

/** One of everything the API lists or reads, each named with the lab's marker. */
async function seed(name: string): Promise<Seeded> {
  const { org, admin, email } = await newTenant(name);
  const marker = uniqueWord(name.slice(0, 2));
  const a = admin;
  const test = (
    await json<{ test: { id: number } }>(
      a.post('/api/tests', { name: `${marker} Glucose`, code: `${marker.slice(0, 6).toUpperCase()}G`, price: 120 }),
    )
  ).test.id;
  const profile = (
    await json<{ profile: { id: number } }>(
      a.post('/api/test-profiles', {
        name: `${marker} Profile`,
        code: `${marker.slice(0, 6).toUpperCase()}P`,
        price: 400,
        test_ids: [test],
      }),
    )
  ).profile.id;
  const pkg = (
    await json<{ package: { id: number } }>(
      a.post('/api/test-packages', {
        name: `${marker} Package`,
        code: `${marker.slice(0, 6).toUpperCase()}K`,
        price: 900,
        test_ids: [test],
        profile_ids: [profile],
      }),
    )
  ).package.id;
  const userEmail = uniqueEmail(`${name.toLowerCase()}user`);
  const user = await createUserVia(a, { first_name: marker, email: userEmail, role: 'lab_technician' });
  const doctor = (
    await json<{ doctor: { id: number } }>(
      a.post('/api/doctors', {
        first_name: marker,
        last_name: 'Doctor',
        consultation_fee: 300,
        status: 'active',
        can_sign_in: false,
      }),
    )
  ).doctor.id;
  const patient = (await createPatient(a, { first_name: marker, last_name: 'Patient', phone: uniquePhone() })).id;
  const bill = (
    await json<{ bill: { id: number } }>(
      a.post('/api/bills', {
        patient_id: patient,
        doctor_id: doctor,
        items: [{ item_type: 'test', item_id: test }],
        payment_method: 'cash',
        notes: `${marker} bill`,
      }),
    )
  ).bill.id;
  const sample = (
    await json<{ sample: { id: number; barcode: string } }>(
      a.post('/api/samples', {
        patient_id: patient,
        sample_type: 'Blood',
        test_ids: [test],
        notes: `${marker} sample`,
      }),
    )
  ).sample;
  const result = (
    await json<{ result: { id: number } }>(
      a.post('/api/test-results', {
        sample_id: sample.id,
        test_id: test,
        result_value: '5',
        notes: `${marker} result`,
      }),
    )
  ).result.id;
  const material = (
    await json<{ material: { id: number } }>(
      a.post('/api/qc/materials', {
        name: `${marker} Control`,
        test_id: test,
        level: 'Level 1',
        target_mean: 100,
        target_sd: 2,
      }),
    )
  ).material.id;
  await json(a.post(`/api/qc/materials/${material}/runs`, { value: 101 }));
  const visit = (
    await json<{ visit: { id: number } }>(
      a.post(`/api/patients/${patient}/visits`, {
        doctor_id: doctor,
        visit_date: localDate(0, 1),
        visit_time: '10:30',
        chief_complaint: `${marker} visit`,
      }),
    )
  ).visit.id;
  await json(a.post('/api/collection-locations', { name: `${marker} Centre`, kind: 'centre' }));
  // An invited colleague who has not set a password yet (the open-invitations list).
  const inviteeEmail = uniqueEmail(`${name.toLowerCase()}invitee`);
  await json(
    a.post('/api/users/invite', { first_name: marker, last_name: 'Invitee', email: inviteeEmail, role: 'collector' }),
  );
  await json(a.post(`/api/patients/${patient}/portal-pin`));
  // Stock, equipment, payers, invoices, the ledger, a closing, data jobs.
  const item = (
    await json<{ item: { id: number } }>(
      a.post('/api/inventory', {
        item_code: `${marker.slice(0, 6).toUpperCase()}R`,
        item_name: `${marker} Reagent`,
        category: 'Biochemistry',
        unit: 'tests',
        minimum_stock: 10,
        maximum_stock: 1000,
        unit_cost: 2.5,
      }),
    )
  ).item.id;
  const supplier = (await json<{ supplier: { id: number } }>(a.post('/api/suppliers', { name: `${marker} Supplies` })))
    .supplier.id;
  const equipment = (
    await json<{ equipment: { id: number } }>(
      a.post('/api/equipment', {
        kind: 'machine',
        name: `${marker} Analyser`,
        model: 'AU480',
        serial_number: `${marker}-SN`,
        type: 'Chemistry Analyzer',
        location: 'Biochemistry',
      }),
    )
  ).equipment.id;
  const calibration = (
    await json<{ calibration: { id: number } }>(
      a.post('/api/calibrations', { equipment_id: equipment, type: 'Routine', due_date: '2030-01-01' }),
    )
  ).calibration.id;
  const maintenance = (
    await json<{ maintenance: { id: number } }>(
      a.post('/api/maintenance', { equipment_id: equipment, type: 'Preventive', due_date: '2030-01-01' }),
    )
  ).maintenance.id;
  // A certificate (a minimal PDF: its magic bytes are what the server checks).
  const pdf = Buffer.from(`%PDF-1.4\n% ${marker} certificate\n%%EOF\n`).toString('base64');
  await json(
    a.post(`/api/calibrations/${calibration}/certificate`, { file_name: `${marker}.pdf`, content_base64: pdf }),
    200,
  );
  const payer = (
    await json<{ payer: { id: number } }>(a.post('/api/payers', { name: `${marker} Corp`, type: 'corporate' }))
  ).payer.id;
  const invoice = (await json<{ invoice: { id: number } }>(a.post('/api/invoices', { bill_id: bill }))).invoice.id;
  const centre = (
    await json<{ centre: { id: number; payer_id: number } }>(
      a.post('/api/centres', { name: `${marker} Centre`, gstin: '29AAACI1111K1Z2', credit_limit: 100000 }),
      201,
    )
  ).centre;
  await json(
    a.post('/api/bills', {
      patient_id: patient,
      items: [{ item_type: 'test', item_id: test }],
      payer_id: centre.payer_id,
    }),
    201,
  );
  await json(a.post(`/api/centres/${centre.id}/share-rules`, { test_id: test, share_percent: 10 }), 201);
  const payment = (
    await json<{ payment: { id: number } }>(a.post('/api/payments', { bill_id: bill, amount: 50, method: 'cash' }))
  ).payment.id;
  const closing = (
    await json<{ closing: { id: number } }>(
      a.post('/api/closings', { date: localDate(0, 0), opening_float: 0, counted_cash: 0, notes: `${marker} drawer` }),
    )
  ).closing.id;
  const job = (
    await json<{ job: { id: number } }>(a.post('/api/data-jobs/exports', { entity: 'patients', format: 'csv' }), 202)
  ).job.id;
  const ruleSet = (
    await json<{ rule_set: { id: number } }>(
      a.post('/api/autoverification/rule-sets', { name: `${marker} rules` }),
      201,
    )
  ).rule_set.id;
  // The export runs in the background: wait for it, so its own audit entry is not written mid-walk.
  for (let i = 0; i < 200; i++) {
    const j = (await json<{ job: { status: string } }>(a.get(`/api/data-jobs/${job}`), 200)).job;
    if (j.status === 'completed') break;
    expect(j.status).not.toBe('failed');
    await new Promise((r) => setTimeout(r, 50));
  }
  const now = new Date().toISOString();
  await lab.database.db
    .insertInto('notifications')
    .values({
      organization_id: org,
      user_id: admin.userId,
      kind: 'import_finished',
      type: 'success',
      priority: 'low',
      is_system: 1,
      title: `${marker} notice`,
      message: `${marker} message`,
      link: null,
      dedupe_key: null,
      read: 0,
      read_at: null,
      created_at: now,
    })
    .execute();
  return {
    org,
    admin,
    marker,
    emails: [email, userEmail, inviteeEmail],
    ids: {
      patient,
      user: user.id,
      doctor,
      test,
      profile,
      package: pkg,
      bill,
      sample: sample.id,
      barcode: sample.barcode,
      result,
      material,
      visit,
      item,
      supplier,
      equipment,
      calibration,
      maintenance,
      payer,
      invoice,
      payment,
      closing,
      job,
      ruleSet,
      booking: await homeBooking(a, marker, patient, test),
      centre: centre.id,
      failedJob: await failedImport(org, marker),
      ...(await machineMessage(a, marker)),
    },
  };
}

/** A home-collection calendar, an area named for the lab and a visit booked in it. */
async function homeBooking(a: Client, marker: string, patient: number, test: number): Promise<number> {
  await json(
    a.put('/api/home-collection/calendar', {
      slot_minutes: 60,
      first_slot: '07:00',
      last_slot: '10:00',
      slot_capacity: 2,
      per_phlebotomist: 1,
      fasting: [{ test_id: test, hours: 8 }],
    }),
    200,
  );
  await json(a.post('/api/home-collection/areas', { name: `${marker} Nagar`, pin_codes: ['560001'] }));
  return (
    await json<{ booking: { id: number } }>(
      a.post('/api/home-collection/bookings', {
        patient_id: patient,
        address: `${marker} House`,
        pin_code: '560001',
        slot_date: localDate(0, 1),
        slot_time: '07:00',
        items: [{ item_type: 'test', item_id: test }],
      }),
    )
  ).booking.id;
}

/** An analyser connection (disabled: no listener) and one message in its log, as a machine would leave. */
async function machineMessage(a: Client, marker: string): Promise<{ connection: number; message: number }> {
  const connection = (
    await json<{ connection: { id: number } }>(
      a.post('/api/connections', {
        name: `${marker} Analyser link`,
        protocol: 'hl7',
        transport: 'tcp-client',
        host: '10.0.0.9',
        port: 9,
        enabled: false,
        code_map: [],
      }),
    )
  ).connection.id;
  const row = await lab.database.db
    .selectFrom('connections')
    .selectAll()
    .where('id', '=', connection)
    .executeTakeFirstOrThrow();
  await logIncomplete(lab.database.db, row, 'hl7', Buffer.from(`MSH|^~\\&|${marker}`), 'cut off');
  const message = await lab.database.db
    .selectFrom('interface_messages')
    .select('id')
    .where('connection_id', '=', connection)
    .executeTakeFirstOrThrow();
  return { connection, message: message.id };
}

/** An import refused for a bad date: a failed job with its errors and report, as the screens' jobs are. */
async function failedImport(org: number, marker: string): Promise<number> {
  const dir = tempDir('lims-iso-import-');
  const path = join(dir, 'patients.csv');
  writeFileSync(path, `first_name,last_name,date_of_birth,gender\n${marker},Import,31/02/1988,Female\n`);
  const r = await runImport(lab.database.db, systemActor(org), {
    entity: entityNamed('patients')!,
    path,
    dryRun: false,
    update: false,
    origin: 'web',
    reportPath: (id) => join(dir, `report-${id}.csv`),
  });
  expect(r.status).toBe('failed');
  return r.job_id;
}

/** More rows in a lab after the first walk: the other lab's answers must not change. */
async function seedMore(s: Seeded): Promise<void> {
  const p = await createPatient(s.admin, { first_name: s.marker, last_name: 'Second' });
  await json(
    s.admin.post('/api/bills', {
      patient_id: p.id,
      items: [{ item_type: 'test', item_id: s.ids.test }],
      payment_method: 'cash',
    }),
  );
  await json(s.admin.post('/api/samples', { patient_id: p.id, sample_type: 'Urine', test_ids: [s.ids.test] }));
  await createUserVia(s.admin, { first_name: s.marker, role: 'receptionist' });
  await json(
    s.admin.post('/api/tests', { name: `${s.marker} Urea`, code: `${s.marker.slice(0, 6).toUpperCase()}U`, price: 90 }),
  );
}

beforeAll(async () => {
  lab = await makeLab();
  A = await seed('Amberlab');
  B = await seed('Bronzelab');
}, 120_000);
afterAll(() => lab.close());

const API_DIR = fileURLToPath(new URL('../../src/shared/api/', import.meta.url));

async function allContracts(): Promise<{ name: string; contract: RouteContract }[]> {
  const out: { name: string; contract: RouteContract }[] = [];
  for (const file of readdirSync(API_DIR).filter((f) => f.endsWith('.ts') && f !== 'contract.ts')) {
    const mod = (await import(join(API_DIR, file))) as Record<string, unknown>;
    for (const [exportName, group] of Object.entries(mod)) {
      if (typeof group !== 'object' || group === null) continue;
      for (const [key, c] of Object.entries(group)) {
        if (c && typeof c === 'object' && 'method' in c && 'path' in c && 'response' in c)
          out.push({ name: `${file}:${exportName}.${key}`, contract: c as RouteContract });
      }
    }
  }
  return out;
}

/**
 * GET routes not walked, and why. Public routes answer without a lab session (the portal has its
 * own session and tests; health and setup name no lab's rows); the barcode image draws whatever
 * text it is given. The tenants routes are the superadmin's, across labs by design: a lab's admin
 * gets 403 (checked below). The centre portal answers a centre's own login only (a lab's admin gets
 * 403): test/api/centre-portal.test.ts walks it as two centres' logins.
 */
const NOT_LAB_SCOPED = (c: RouteContract) =>
  c.access === 'public' ||
  c.path === '/api/barcodes/:barcode.png' ||
  c.path.startsWith('/api/tenants') ||
  c.path.startsWith('/api/centre-portal/');

/** The path parameters of a route, filled with one lab's ids; null when the test does not know the route. */
function paramsFor(path: string, s: Seeded): Record<string, string | number> | null {
  const i = s.ids;
  const byPrefix: [RegExp, Record<string, string | number>][] = [
    [/^\/api\/bills\/:id/, { id: i.bill }],
    [/^\/api\/doctors\/:id/, { id: i.doctor }],
    [/^\/api\/patients\/:id/, { id: i.patient }],
    [/^\/api\/pricing\/:type\/:id/, { type: 'test', id: i.test }],
    [/^\/api\/qc\/materials\/:id/, { id: i.material }],
    [/^\/api\/qc\/tests\/:id/, { id: i.test }],
    [/^\/api\/samples\/(by|check)-barcode\/:barcode/, { barcode: i.barcode }],
    [/^\/api\/samples\/:id/, { id: i.sample }],
    [/^\/api\/test-packages\/:id/, { id: i.package }],
    [/^\/api\/test-profiles\/:id/, { id: i.profile }],
    [/^\/api\/tests\/:id/, { id: i.test }],
    [/^\/api\/test-results\/:id/, { id: i.result }],
    [/^\/api\/users\/:id/, { id: i.user }],
    [/^\/api\/visits\/:id/, { id: i.visit }],
    [/^\/api\/inventory\/:id/, { id: i.item }],
    [/^\/api\/suppliers\/:id/, { id: i.supplier }],
    [/^\/api\/equipment\/:id/, { id: i.equipment }],
    [/^\/api\/calibrations\/:id/, { id: i.calibration }],
    [/^\/api\/maintenance\/reports\/:report/, { report: 'equipment' }],
    [/^\/api\/maintenance\/:id/, { id: i.maintenance }],
    [/^\/api\/payers\/:id/, { id: i.payer }],
    [/^\/api\/centres\/:id/, { id: i.centre }],
    [/^\/api\/invoices\/:id/, { id: i.invoice }],
    [/^\/api\/payments\/:id/, { id: i.payment }],
    [/^\/api\/closings\/:id/, { id: i.closing }],
    [/^\/api\/data-jobs\/templates\/:entity/, { entity: 'patients' }],
    [/^\/api\/data-jobs\/:id\/(errors|error-report)/, { id: i.failedJob }],
    [/^\/api\/data-jobs\/:id/, { id: i.job }],
    [/^\/api\/reports\/:id/, { id: 'revenue-by-test' }],
    [/^\/api\/connections\/messages\/:id/, { id: i.message }],
    [/^\/api\/connections\/:id/, { id: i.connection }],
    [/^\/api\/autoverification\/rule-sets\/:id/, { id: i.ruleSet }],
    [/^\/api\/home-collection\/bookings\/:id/, { id: i.booking }],
    [/^\/api\/report-delivery\/samples\/:id/, { id: i.sample }],
  ];
  return byPrefix.find(([re]) => re.test(path))?.[1] ?? null;
}

/** Query parameters a route requires (a period), so that it answers for its id rather than a 400. */
const QUERY: Record<string, string | ((s: Seeded) => string)> = {
  '/api/payers/:id/statement': '?from=2020-01-01&to=2030-12-31',
  '/api/payers/:id/statement/pdf': '?from=2020-01-01&to=2030-12-31',
  '/api/centres/:id/statement': '?from=2020-01-01&to=2030-12-31',
  '/api/centres/:id/statement/pdf': '?from=2020-01-01&to=2030-12-31',
  '/api/comprehensive-reports/monthly': `?month=${new Date().toISOString().slice(0, 7)}`,
  '/api/home-collection/slots': `?date=${localDate(0, 1)}`,
  '/api/home-collection/board': `?date=${localDate(0, 1)}`,
  '/api/home-visits': `?date=${localDate(0, 1)}`,
  '/api/autoverification/decisions': (s) => `?result_ids=${s.ids.result}`,
  '/api/accounts/tally/export': `?month=${new Date().toISOString().slice(0, 7)}`,
  '/api/accounts/gstr1/export': `?month=${new Date().toISOString().slice(0, 7)}`,
  '/api/accounts/gstr1/csv': `?month=${new Date().toISOString().slice(0, 7)}&section=b2cs`,
  '/api/accounts/einvoice/export': `?month=${new Date().toISOString().slice(0, 7)}`,
};
const urlOf = (path: string, params: Record<string, string | number> | undefined, s: Seeded) => {
  const query = QUERY[path] ?? '';
  return routeUrl(path, params) + (typeof query === 'function' ? query(s) : query);
};

/** Routes whose path parameter names a kind of thing (a template, a report), not a lab's row. */
const NOT_IDS = [
  '/api/data-jobs/templates/:entity',
  '/api/maintenance/reports/:report',
  '/api/maintenance/reports/:report/csv',
  '/api/maintenance/reports/:report/pdf',
  '/api/reports/:id',
];

async function labRoutes(): Promise<{ name: string; contract: RouteContract }[]> {
  return (await allContracts()).filter(({ contract }) => contract.method === 'GET' && !NOT_LAB_SCOPED(contract));
}

const hasParams = (c: RouteContract) => c.path.includes(':');

/** What a route answers, without what changes on its own between two reads (clocks, the server's process). */
function comparable(res: LightMyRequestResponse): unknown {
  if (!String(res.headers['content-type'] ?? '').includes('json'))
    return { status: res.statusCode, bytes: res.rawPayload.length };
  // Clocks and what counts from them (the live board's as-of time and its waiting minutes); a record's
  // updated_at moves only with the record, whose other fields would show the change anyway.
  const volatile = new Set([
    'time',
    'uptime_seconds',
    'memory',
    'now',
    'as_of',
    'generated_at',
    'server',
    'database',
    'updated_at',
    'oldest_minutes',
    'waiting_minutes',
    'minutes_since',
    'elapsed_minutes',
  ]);
  const strip = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(strip)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => !volatile.has(k))
              .map(([k, x]) => [k, strip(x)]),
          )
        : v;
  return { status: res.statusCode, body: strip(res.json()) };
}

/** Reads that record themselves (a report's print count, an export's audit row): left out when comparing two walks. */
const RECORDS_ITSELF = (c: RouteContract) =>
  /\/export$|\/report\.pdf$|\/download$|\/pdf$|\/certificate$|\/error-report$|\/csv$/.test(c.path) ||
  // A report run is recorded (the catalogue's counts and cards).
  c.path === '/api/reports/:id' ||
  c.path === '/api/comprehensive-reports/monthly';

/** Every lab-scoped GET route as one lab's admin, with that lab's own ids; the answers by route. */
async function walk(s: Seeded, opts: { readOnly?: boolean } = {}): Promise<Map<string, LightMyRequestResponse>> {
  const out = new Map<string, LightMyRequestResponse>();
  for (const { name, contract } of await labRoutes()) {
    if (opts.readOnly && RECORDS_ITSELF(contract)) continue;
    const params = hasParams(contract) ? paramsFor(contract.path, s) : undefined;
    if (params === null) throw new Error(`${name}: the isolation test does not know which id ${contract.path} takes`);
    out.set(name, await s.admin.get(urlOf(contract.path, params, s)));
  }
  return out;
}

function leaks(res: LightMyRequestResponse, other: Seeded): string[] {
  const text = res.body;
  return [other.marker, ...other.emails].filter((m) => text.toLowerCase().includes(m.toLowerCase()));
}

describe('two labs on one server', () => {
  it('knows every lab-scoped GET route (a new route needs its ids named here)', async () => {
    const unknown = (await labRoutes())
      .filter(({ contract }) => hasParams(contract) && paramsFor(contract.path, A) === null)
      .map(({ name }) => name);
    expect(unknown).toEqual([]);
    expect((await labRoutes()).length).toBeGreaterThan(50);
  });

  for (const [me, other] of [
    ['A', 'B'],
    ['B', 'A'],
  ] as const) {
    it(`lab ${me}'s admin reads every list and record of its own, and never a row of lab ${other}`, async () => {
      const mine = me === 'A' ? A : B;
      const theirs = me === 'A' ? B : A;
      const answers = await walk(mine);
      const problems: string[] = [];
      for (const [name, res] of answers) {
        if (res.statusCode === 404 || res.statusCode >= 500)
          problems.push(`${name}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        const leaked = leaks(res, theirs);
        if (leaked.length) problems.push(`${name} shows lab ${other}'s ${leaked.join(', ')}`);
      }
      expect(problems).toEqual([]);
      // The walk saw this lab's own rows: the marker is in its lists.
      for (const list of [
        'patients.ts:patientsApi.list',
        'users.ts:usersApi.list',
        'samples.ts:samplesApi.list',
        'bills.ts:billsApi.list',
      ]) {
        expect(answers.get(list)?.body, list).toContain(mine.marker);
      }
      expect(answers.get('invitations.ts:userInvitationsApi.list')?.body).toContain(mine.emails[2]);
    });

    it(`lab ${me}'s admin gets 404 for every id of lab ${other}`, async () => {
      const mine = me === 'A' ? A : B;
      const theirs = me === 'A' ? B : A;
      const problems: string[] = [];
      for (const { name, contract } of await labRoutes()) {
        if (!hasParams(contract)) continue;
        const res = await mine.admin.get(urlOf(contract.path, paramsFor(contract.path, theirs)!, theirs));
        // A template's entity name and a report's kind are the same words in every lab: not ids.
        if (NOT_IDS.includes(contract.path)) continue;
        if (contract.path === '/api/samples/check-barcode/:barcode') {
          // The barcode check answers whether this lab may use the barcode: the other lab's is free here.
          if (res.statusCode !== 200 || res.json<{ isUnique: boolean }>().isUnique !== true)
            problems.push(`${name}: ${res.statusCode} ${res.body}`);
          continue;
        }
        if (res.statusCode !== 404) problems.push(`${name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        if (leaks(res, theirs).length) problems.push(`${name} leaks ${leaks(res, theirs).join(', ')}`);
        if (!isFileResponse(contract.response) && res.statusCode === 404)
          expect(res.json<{ statusCode: number }>().statusCode).toBe(404);
      }
      expect(problems).toEqual([]);
    });
  }

  it("answers the same to lab A after lab B writes more (no figure counts the other lab's rows)", async () => {
    const before = await walk(A, { readOnly: true });
    expect(before.size).toBeGreaterThan(50);
    await seedMore(B);
    const after = await walk(A, { readOnly: true });
    const changed = [...before.keys()].filter(
      (k) => JSON.stringify(comparable(before.get(k)!)) !== JSON.stringify(comparable(after.get(k)!)),
    );
    expect(changed).toEqual([]);
    // ... while lab B's own figures moved.
    const bStats = (await B.admin.get('/api/dashboard/stats')).json<{ counts: { patients: number } }>().counts;
    const aStats = (await A.admin.get('/api/dashboard/stats')).json<{ counts: { patients: number } }>().counts;
    expect(bStats.patients).toBe(2);
    expect(aStats.patients).toBe(1);
  });

  it("answers 404 to verifying another lab's sample, with no word about its results", async () => {
    const res = await A.admin.post(`/api/samples/${B.ids.sample}/verify`, { ids: [B.ids.result] });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.body).not.toContain(String(B.ids.result).padStart(4, '0'));
    const still = await B.admin.get(`/api/test-results/${B.ids.result}`);
    expect(still.json<{ result: { status: string } }>().result.status).not.toBe('verified');
  });

  it("answers 404 to emailing another lab's centre its statement, and queues nothing", async () => {
    const res = await A.admin.post(`/api/centres/${B.ids.centre}/statement/send`, {
      from: '2020-01-01',
      to: '2030-12-31',
    });
    expect(res.statusCode, res.body).toBe(404);
    const queued = await lab.database.db
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', 'centre_statement')
      .execute();
    expect(queued).toEqual([]);
  });

  it("answers 404 to handing out, revoking or sending again another lab's report link", async () => {
    for (const [method, path] of [
      ['POST', '/api/report-delivery/samples/:id/link'],
      ['DELETE', '/api/report-delivery/samples/:id/link'],
      ['POST', '/api/report-delivery/samples/:id/resend'],
      ['PUT', '/api/patients/:id/report-consent'],
    ] as const) {
      const id = path.startsWith('/api/patients') ? B.ids.patient : B.ids.sample;
      const res = await lab.app.inject({
        method,
        url: routeUrl(path, { id }),
        headers: { cookie: A.admin.cookie },
        payload: path.startsWith('/api/patients') ? { channel: 'sms', consent: true } : {},
      });
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(404);
      expect(res.body).not.toContain(B.marker);
    }
  });

  it("marks no SMS of another lab delivered with this lab's delivery report key", async () => {
    const key = 'lab-a-dlr-key-0123456789';
    const { lab_id: _l, ...saved } = (await A.admin.get('/api/report-delivery/settings')).json<{
      settings: Record<string, unknown>;
    }>().settings;
    const put = await A.admin.put('/api/report-delivery/settings', { ...saved, sms_report_key: key });
    expect(put.statusCode, put.body).toBe(200);
    const now = new Date().toISOString();
    const link = await lab.database.db
      .insertInto('report_links')
      .values({ organization_id: B.org, sample_id: B.ids.sample, version: 99, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await lab.database.db
      .insertInto('report_deliveries')
      .values({
        organization_id: B.org,
        sample_id: B.ids.sample,
        link_id: link.id,
        recipient_kind: 'patient',
        channel: 'sms',
        recipient: '9845012345',
        status: 'sent',
        next_attempt_at: now,
        created_at: now,
        sent_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await lab.database.db
      .updateTable('report_deliveries')
      .set({ provider_id: `rd${row.id}` })
      .where('id', '=', row.id)
      .execute();
    const post = (labId: number) =>
      lab.app.inject({
        method: 'POST',
        url: `/api/report-delivery/webhooks/sms/${labId}?key=${key}`,
        payload: { ref: `rd${row.id}`, status: 'delivered' },
      });
    expect((await post(A.org)).json()).toEqual({ updated: 0 });
    expect((await post(B.org)).statusCode).not.toBe(200);
    const after = await lab.database.db
      .selectFrom('report_deliveries')
      .select('status')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after.status).toBe('sent');
  });

  it("reads no autoverification decision of another lab's result", async () => {
    await lab.database.db
      .insertInto('autoverify_decisions')
      .values({
        organization_id: B.org,
        result_id: B.ids.result,
        test_id: B.ids.test,
        rule_set_id: B.ids.ruleSet,
        mode: 'shadow',
        decision: 'hold',
        released: 0,
        result_value: null,
        reasons: '[]',
        decided_at: new Date().toISOString(),
      })
      .execute();
    const url = `/api/autoverification/decisions?result_ids=${B.ids.result}`;
    expect((await B.admin.get(url)).json<{ decisions: unknown[] }>().decisions).toHaveLength(1);
    const res = await A.admin.get(url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ decisions: unknown[] }>().decisions).toEqual([]);
  });

  it("keeps the superadmin's tenant routes from a lab's admin", async () => {
    for (const { contract } of (await allContracts()).filter(({ contract }) =>
      contract.path.startsWith('/api/tenants'),
    )) {
      const url = routeUrl(contract.path, contract.path.includes(':id') ? { id: A.org } : undefined);
      const res = await lab.app.inject({
        method: contract.method,
        url,
        headers: { cookie: A.admin.cookie },
        payload: {},
      });
      expect(res.statusCode, `${contract.method} ${contract.path}`).toBe(403);
    }
  });
});
