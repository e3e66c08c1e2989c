import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, login, makeLab, pdfText, PASSWORD, type Client, type TestLab } from '../helpers.js';
import { row } from '../db.js';
import { badFields, createPatient, errorBody, uniqueEmail, uniqueWord } from './support.js';
import { routeUrl, type RouteContract } from '../../src/shared/api/contract.js';
import type { Centre } from '../../src/shared/schemas/centres.js';

/**
 * A collection centre's own login: bound to one centre, it registers its patients, orders tests
 * at its rates, prints labels and reads its released reports and statement, and nothing else. Two
 * centres and the lab's own walk-in patient, each row carrying a marker word: each centre's login
 * walks every route of the API and never sees another's row.
 */
let lab: TestLab;
let test: number; // lab price 400
let tech: Client;
let validator: Client;
let walkInMarker: string;
let labelBeforeCollection = '';

interface Side {
  centre: Centre;
  marker: string;
  email: string;
  user: Client;
  patient: number;
  bill: number;
  sample: number;
}
let A: Side;
let B: Side;

async function addCentre(body: Record<string, unknown>): Promise<Centre> {
  const res = await lab.admin.post('/api/centres', { name: uniqueWord('Centre '), credit_days: 30, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ centre: Centre }>().centre;
}

/** A centre, its login (made by the lab's admin) and, through the portal, a patient with a released report. */
async function side(discount: number): Promise<Side> {
  const marker = uniqueWord('Mk');
  const centre = await addCentre({ name: `${marker} Clinic`, discount_percent: discount, email: `${marker}@c.test` });
  const email = uniqueEmail('centre');
  const made = await lab.admin.post('/api/users', {
    first_name: marker,
    last_name: 'Desk',
    email,
    role: 'centre',
    centre_id: centre.id,
    password: PASSWORD,
  });
  expect(made.statusCode, made.body).toBe(201);
  const user = client(lab.app, await login(lab.app, email, PASSWORD), made.json().user.id, email);
  const reg = await user.post('/api/centre-portal/patients', {
    first_name: marker,
    last_name: 'Patient',
    gender: 'Female',
    date_of_birth: '1980-01-01',
    phone: '9812345678',
  });
  expect(reg.statusCode, reg.body).toBe(201);
  const patient = reg.json().patient.id as number;
  const order = await user.post('/api/centre-portal/bills', { patient_id: patient, test_ids: [test] });
  expect(order.statusCode, order.body).toBe(201);
  const bill = order.json().bill.id as number;
  const sample = (await row<{ id: number }>(lab.database, 'SELECT id FROM samples WHERE bill_id = ?', bill))!.id;
  const label = await user.get(`/api/centre-portal/samples/${sample}/label.pdf`);
  labelBeforeCollection = `${label.statusCode} ${label.statusCode === 200 ? '' : label.body}`;
  expect((await lab.admin.post('/api/samples/collect', { ids: [sample] })).statusCode).toBe(200);
  const r = await tech.post('/api/test-results', { sample_id: sample, test_id: test, result_value: '95' });
  expect(r.statusCode, r.body).toBe(201);
  expect((await validator.put(`/api/test-results/${r.json().result.id}/verify`)).statusCode).toBe(200);
  return { centre, marker, email, user, patient, bill, sample };
}

beforeAll(async () => {
  lab = await makeLab();
  const t = await lab.admin.post('/api/tests', {
    name: 'Fasting Blood Sugar',
    code: 'FBSP',
    price: 400,
    unit: 'mg/dL',
    normal_range: '70-110',
  });
  expect(t.statusCode, t.body).toBe(201);
  test = t.json().test.id;
  tech = await lab.as('lab_technician');
  validator = await lab.as('validator');
  walkInMarker = uniqueWord('Wk');
  const walkIn = await createPatient(lab.admin, { first_name: walkInMarker });
  const wb = await lab.admin.post('/api/bills', {
    patient_id: walkIn.id,
    items: [{ item_type: 'test', item_id: test }],
  });
  expect(wb.statusCode, wb.body).toBe(201);
  A = await side(25);
  B = await side(0);
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

/** The routes open to any signed-in user that a centre's login keeps: its account, the lab's name, its bell. */
const CENTRE_OPEN = /^\/api\/(auth\/|account\/|notifications(\/|$)|lab$)/;
const PERIOD = '?from=2020-01-01&to=2030-12-31';

function urlFor(c: RouteContract, s: Side): string {
  const id = c.path.includes('/samples/') ? s.sample : c.path.includes('/bills/') ? s.bill : 1;
  const url = c.path.includes(':')
    ? routeUrl(c.path, Object.fromEntries([...c.path.matchAll(/:(\w+)/g)].map((m) => [m[1], id])))
    : c.path;
  return url + (c.path.includes('/statement') ? PERIOD : '');
}

const leaks = (body: string, others: string[]) => others.filter((m) => body.toLowerCase().includes(m.toLowerCase()));

describe("a centre's login", () => {
  for (const [me, other] of [
    ['A', 'B'],
    ['B', 'A'],
  ] as const) {
    it(`of centre ${me} walks every route: 403 off the portal, its own rows on it, never centre ${other}'s or the lab's`, async () => {
      const mine = me === 'A' ? A : B;
      const theirs = me === 'A' ? B : A;
      const problems: string[] = [];
      let portal = 0;
      for (const { name, contract } of await allContracts()) {
        if (contract.access === 'public') continue;
        const open = contract.access === 'authenticated' && CENTRE_OPEN.test(contract.path);
        // Its own account's changes (signing out, ending sessions) would end the walk's session.
        if (open && contract.method !== 'GET') continue;
        const res = await lab.app.inject({
          method: contract.method,
          url: urlFor(contract, mine),
          headers: { cookie: mine.user.cookie },
          ...(contract.method === 'GET' ? {} : { payload: {} }),
        });
        const onPortal = contract.path.startsWith('/api/centre-portal/');
        if (!onPortal && !open && res.statusCode !== 403) problems.push(`${name}: ${res.statusCode}, not 403`);
        if (onPortal && contract.method === 'GET') {
          portal += 1;
          if (res.statusCode !== 200) problems.push(`${name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
        }
        const leaked = leaks(res.body, [theirs.marker, theirs.email, walkInMarker]);
        if (leaked.length) problems.push(`${name} shows ${leaked.join(', ')}`);
      }
      expect(problems).toEqual([]);
      expect(portal).toBe(9);
      const patients = (await mine.user.get('/api/centre-portal/patients')).json().patients;
      expect(patients.map((p: { id: number }) => p.id)).toEqual([mine.patient]);
      const bills = (await mine.user.get('/api/centre-portal/bills')).json().bills;
      expect(bills.map((b: { id: number }) => b.id)).toEqual([mine.bill]);
    });

    it(`of centre ${me} gets 404 for centre ${other}'s patient, bill and tube`, async () => {
      const mine = me === 'A' ? A : B;
      const theirs = me === 'A' ? B : A;
      for (const url of [
        `/api/centre-portal/bills/${theirs.bill}`,
        `/api/centre-portal/bills/${theirs.bill}/report.pdf`,
        `/api/centre-portal/samples/${theirs.sample}/label.pdf`,
      ]) {
        const res = await mine.user.get(url);
        expect(res.statusCode, url).toBe(404);
        expect(leaks(res.body, [theirs.marker])).toEqual([]);
      }
      const order = await mine.user.post('/api/centre-portal/bills', { patient_id: theirs.patient, test_ids: [test] });
      expect(order.statusCode).toBe(404);
      expect((await mine.user.get(`/api/centre-portal/patients?search=${theirs.marker}`)).json().patients).toEqual([]);
    });
  }

  it("orders at the centre's rate, on the centre's account, and prints its labels and released report", async () => {
    const tests = (await A.user.get('/api/centre-portal/tests?search=FBSP')).json().tests;
    expect(tests).toEqual([expect.objectContaining({ id: test, price: 300 })]);
    const bill = (await A.user.get(`/api/centre-portal/bills/${A.bill}`)).json();
    expect(bill.bill).toMatchObject({ amount: 300, due: 300, patient_id: A.patient });
    expect(bill.reports).toEqual([expect.objectContaining({ sample_id: A.sample, printable: true })]);
    const stored = await row<{ payer_id: number }>(lab.database, 'SELECT payer_id FROM bills WHERE id = ?', A.bill);
    expect(stored!.payer_id).toBe(A.centre.payer_id);
    const label = await A.user.get(`/api/centre-portal/samples/${A.sample}/label.pdf`);
    expect(label.statusCode, label.body).toBe(200);
    expect(labelBeforeCollection).toBe('200 ');
    const report = await A.user.get(`/api/centre-portal/bills/${A.bill}/report.pdf`);
    expect(report.statusCode, report.body).toBe(200);
    expect(pdfText(report)).toContain(A.marker);
    expect(badFields(await A.user.post('/api/centre-portal/bills', { patient_id: A.patient, test_ids: [] }))).toEqual([
      'test_ids',
    ]);
  });

  it('is told why it is on hold: the next order is refused and its reports are held, with the reason', async () => {
    expect((await lab.admin.put(`/api/centres/${B.centre.id}`, { credit_limit: 100 })).statusCode).toBe(200);
    try {
      const account = (await B.user.get('/api/centre-portal/centre')).json().centre;
      expect(account.hold.on_hold).toBe(true);
      expect(account.hold.reason).toContain('past its credit limit of ₹100.00');
      const refused = await B.user.post('/api/centre-portal/bills', { patient_id: B.patient, test_ids: [test] });
      expect(refused.statusCode).toBe(409);
      expect(errorBody(refused).code).toBe('CENTRE_ON_HOLD');
      expect(errorBody(refused).message).toContain('credit limit');
      const detail = (await B.user.get(`/api/centre-portal/bills/${B.bill}`)).json();
      expect(detail.reports[0]).toMatchObject({ printable: false });
      expect(detail.reports[0].reason).toContain('credit limit');
      const held = await B.user.get(`/api/centre-portal/bills/${B.bill}/report.pdf`);
      expect(held.statusCode).toBe(409);
      expect(errorBody(held).code).toBe('REPORT_HELD_CENTRE');
    } finally {
      await lab.admin.put(`/api/centres/${B.centre.id}`, { credit_limit: null });
    }
  });

  it('reads its own statement: its bills only', async () => {
    const st = (await A.user.get(`/api/centre-portal/statement${PERIOD}`)).json().statement;
    expect(st.centre.id).toBe(A.centre.id);
    expect(st).toMatchObject({ opening_balance: 0, billed: 300, paid: 0, closing_balance: 300 });
    const pdf = await A.user.get(`/api/centre-portal/statement/pdf${PERIOD}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf)).toContain(A.centre.name);
  });
});

describe('binding a login to a centre', () => {
  it('needs a centre of the lab for the centre role, and refuses one for staff', async () => {
    const base = { first_name: 'Cx', last_name: 'Desk', password: PASSWORD };
    const post = (body: Record<string, unknown>) =>
      lab.admin.post('/api/users', { ...base, email: uniqueEmail('bind'), ...body });
    expect(badFields(await post({ role: 'centre' }))).toEqual(['centre_id']);
    expect(badFields(await post({ role: 'centre', centre_id: 999_999 }))).toEqual(['centre_id']);
    expect(badFields(await post({ role: 'receptionist', centre_id: A.centre.id }))).toEqual(['centre_id']);
  });

  it('keeps the centre role to the portal: the Permission Manager changes neither it nor gives the portal away', async () => {
    const matrix = (await lab.admin.get('/api/permissions')).json().matrix;
    const centre = matrix.roles.find((r: { role: string }) => r.role === 'centre');
    expect(centre).toMatchObject({ permissions: ['centre_portal'], editable: false });
    const widen = await lab.admin.put('/api/permissions', {
      roles: [{ role: 'centre', permissions: ['centre_portal', 'view_patients'] }],
    });
    expect(widen.statusCode).toBe(400);
    const give = await lab.admin.put('/api/permissions', {
      roles: [
        {
          role: 'receptionist',
          permissions: [
            ...matrix.roles.find((r: { role: string }) => r.role === 'receptionist').permissions,
            'centre_portal',
          ],
        },
      ],
    });
    expect(give.statusCode).toBe(400);
    // A staff login (no centre) is refused by the portal's routes.
    expect((await lab.admin.get('/api/centre-portal/bills')).statusCode).toBe(403);
  });
});
