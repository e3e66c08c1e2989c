import { afterEach, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { createPatient, uniquePhone } from './support.js';

/** A log destination that keeps every line, parsed. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    text: () => lines.map((l) => JSON.stringify(l)).join('\n'),
    stream: { write: (chunk: string) => void lines.push(JSON.parse(chunk) as Record<string, unknown>) },
  };
}

const labs: TestLab[] = [];
afterEach(async () => {
  for (const lab of labs.splice(0)) await lab.close().catch(() => undefined);
});

/** Registers a patient with a recognisable name and phone, looks them up and searches for them. */
async function workWithPatient(lab: TestLab) {
  const phone = uniquePhone();
  const patient = await createPatient(lab.admin, { first_name: 'Zebediah', last_name: 'Quartermaine', phone });
  expect((await lab.admin.get(`/api/patients/${patient.id}`)).statusCode).toBe(200);
  expect((await lab.admin.get('/api/patients?search=Zebediah&page=1&limit=10')).statusCode).toBe(200);
  expect((await lab.admin.get(`/api/patients?search=${phone}`)).statusCode).toBe(200);
  return { patient, phone };
}

/** Makes the next request fail inside the server: the database is closed under it. */
async function failOneRequest(lab: TestLab) {
  await lab.database.close();
  const res = await lab.admin.get('/api/patients?search=Zebediah');
  expect(res.statusCode).toBe(500);
  expect(JSON.parse(res.body).message).toBe('Something went wrong on the server; the error has been logged');
}

function expectNothingIdentifying(text: string, phone: string) {
  expect(text).not.toContain('Zebediah');
  expect(text).not.toContain('Quartermaine');
  expect(text).not.toContain(phone);
  expect(text).not.toContain('search=');
  expect(text).not.toContain('lims_session');
  expect(text).not.toContain('password');
}

describe('the server log by default', () => {
  it('has no line per request, and names nobody', async () => {
    const log = capture();
    const lab = await makeLab({ logger: { stream: log.stream } });
    labs.push(lab);
    const { phone } = await workWithPatient(lab);
    expect(log.lines.filter((l) => /request/.test(String(l.msg)))).toEqual([]);
    expectNothingIdentifying(log.text(), phone);
  });

  it('logs a failed request as an error with its request id, method and path (no query string)', async () => {
    const log = capture();
    const lab = await makeLab({ logger: { stream: log.stream } });
    labs.push(lab);
    const { phone } = await workWithPatient(lab);
    await failOneRequest(lab);
    const errors = log.lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ msg: 'request failed', method: 'GET', path: '/api/patients' });
    expect(String(errors[0]?.reqId)).toMatch(/^req-/);
    // SQLite: "The database connection is not open"; PostgreSQL: the driver's pool has been destroyed.
    expect((errors[0]?.err as { message?: string }).message).toMatch(/database|destroyed/i);
    expectNothingIdentifying(log.text(), phone);
  });
});

describe('the server log with request lines (lims serve --log-requests)', () => {
  it('logs each request with its id, method, path without query string and status, and names nobody', async () => {
    const log = capture();
    const lab = await makeLab({ logger: { stream: log.stream }, logRequests: true });
    labs.push(lab);
    const { patient, phone } = await workWithPatient(lab);
    const incoming = log.lines.filter((l) => l.msg === 'incoming request');
    const completed = log.lines.filter((l) => l.msg === 'request completed');
    // Sign-in, registration, the look-up and two searches.
    expect(incoming.length).toBeGreaterThanOrEqual(5);
    expect(completed).toHaveLength(incoming.length);
    expect(incoming.map((l) => (l.req as { path: string }).path)).toContain(`/api/patients/${patient.id}`);
    expect(completed.every((l) => typeof l.reqId === 'string' && typeof l.responseTime === 'number')).toBe(true);
    // The answer's line names its request too (method and path, no query string).
    expect(completed.map((l) => (l.res as { path: string }).path)).toContain(`/api/patients/${patient.id}`);
    expect(completed.every((l) => typeof (l.res as { method?: unknown }).method === 'string')).toBe(true);
    expectNothingIdentifying(log.text(), phone);

    await failOneRequest(lab);
    const error = log.lines.find((l) => l.level === 50 && l.msg === 'request failed');
    expect(error).toMatchObject({ method: 'GET', path: '/api/patients' });
    expect(String(error?.reqId)).toMatch(/^req-/);
  });
});
