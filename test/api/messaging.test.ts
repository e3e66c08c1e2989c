import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeLab, PASSWORD, type Client, type TestLab } from '../helpers.js';
import { freePort } from '../net.js';
import { createUser } from '../../src/core/users/service.js';
import { systemActor } from '../../src/core/context.js';
import { notify } from '../../src/core/notifications/notify.js';
import { deliverDue, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/core/messaging/sender.js';
import { startServerJobs } from './jobs-support.js';
import { smsRequest } from '../../src/core/messaging/sms.js';
import { SEND_TIMEOUT_MS } from '../../src/core/messaging/mail.js';
import { ENGINE } from '../db.js';
import type { SmsRow } from '../../src/core/messaging/repository.js';
import type { Deliveries, SendOutcome } from '../../src/shared/schemas/messaging.js';
import { auditRowsFor, badFields, otherLabAdmin, uniqueEmail, uniquePhone, uniqueWord } from './support.js';

/** A message the local SMTP server received. */
interface Mail {
  from: string;
  to: string[];
  subject: string;
  body: string;
}

/** A request the local SMS gateway received. */
interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The fake mail server and gateway listen on this machine: the lab is allowed there, as an operator would. */
const LOCAL = { allowPrivateOutbound: true };
let lab: TestLab;
let smtp: SMTPServer;
let smtpPort: number;
const mails: Mail[] = [];
const auths: { user: string; pass: string }[] = [];
let gateway: HttpServer;
let gatewayPort: number;
let gatewayStatus = 200;
const hits: Hit[] = [];
let silent: TcpServer;
let silentPort: number;
const silentSockets = new Set<Socket>();
let tech: Client;
let validator: Client;
let manager: Client;
let fbs: number;

const SMTP_PASSWORD = 'smtp-Secret-4242';
const API_KEY = 'sms-key-Zq81x';

/** The text of a received message: headers unfolded, quoted-printable body decoded. */
function parseMail(raw: string): { subject: string; body: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = /^Subject: (.*)$/im.exec(headers)?.[1] ?? '';
  let body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(headers))
    body = Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  return { subject, body: body.replace(/\r\n/g, '\n') };
}

function listen(server: { listen: (port: number, host: string, cb: () => void) => unknown }): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === 'refused') return cb(new Error('Invalid username or password'));
      auths.push({ user: auth.username ?? '', pass: auth.password ?? '' });
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { subject, body } = parseMail(Buffer.concat(chunks).toString('utf8'));
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          body,
        });
        cb();
      });
    },
  });
  await listen(smtp);
  smtpPort = (smtp.server.address() as AddressInfo).port;

  gateway = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(gatewayStatus, { 'content-type': 'text/plain' });
      // A gateway that echoes the request, key included: the answer must not carry it onwards.
      res.end(`received ${req.url ?? ''}`);
    });
  });
  await listen(gateway);
  gatewayPort = (gateway.address() as AddressInfo).port;

  // Accepts the connection and never says a word: the ~10 s timeout.
  silent = createTcpServer((socket) => {
    silentSockets.add(socket);
    socket.on('close', () => silentSockets.delete(socket));
  });
  await listen(silent);
  silentPort = (silent.address() as AddressInfo).port;

  lab = await makeLab({ allowPrivateOutbound: true });
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
});

afterAll(async () => {
  await lab.close();
  for (const s of silentSockets) s.destroy();
  await new Promise<void>((r) => silent.close(() => r()));
  await new Promise<void>((r) => gateway.close(() => r()));
  await new Promise<void>((r) => smtp.close(() => r()));
});

beforeEach(() => {
  mails.length = 0;
  hits.length = 0;
  auths.length = 0;
  gatewayStatus = 200;
});

const smtpBody = (over: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: smtpPort,
  security: 'none',
  user: 'lab-mailer',
  password: SMTP_PASSWORD,
  fromAddress: 'reports@testlab.example',
  fromName: 'Test Lab',
  ...over,
});

const smsBody = (over: Record<string, unknown> = {}) => ({
  method: 'GET',
  urlTemplate: `http://127.0.0.1:${gatewayPort}/send?to={to}&text={message}&key={key}`,
  apiKey: API_KEY,
  ...over,
});

async function saveSmtp(over: Record<string, unknown> = {}) {
  const res = await lab.admin.put('/api/settings/email', smtpBody(over));
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function saveSms(over: Record<string, unknown> = {}) {
  const res = await lab.admin.put('/api/settings/sms', smsBody(over));
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function setSwitches(s: Record<string, boolean>) {
  const res = await lab.admin.put('/api/settings', s);
  expect(res.statusCode, res.body).toBe(200);
}

async function outboxRows(kind?: string) {
  let q = lab.database.db.selectFrom('outbox').selectAll().where('organization_id', '=', lab.organizationId);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('id').execute();
}

async function maxOutboxId(): Promise<number> {
  const r = await lab.database.db
    .selectFrom('outbox')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(r?.id ?? 0);
}

async function rowsAfter(id: number) {
  return (await outboxRows()).filter((r) => Number(r.id) > id);
}

async function newPatient(extra: Record<string, unknown> = {}) {
  const first = uniqueWord('Pm');
  const last = uniqueWord('Ql');
  const res = await lab.admin.post('/api/patients', {
    first_name: first,
    last_name: last,
    date_of_birth: '1980-03-01',
    gender: 'Female',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return {
    id: res.json().patient.id as number,
    code: res.json().patient.patient_id as string,
    name: `${first} ${last}`,
  };
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

async function enter(sampleId: number, value: string) {
  const res = await tech.post('/api/test-results', { sample_id: sampleId, test_id: fbs, result_value: value });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result as { id: number };
}

/** A staff user with a phone number (notifications go to their email and phone). */
async function staff(role: 'validator' | 'lab_manager' | 'doctor', phone: string | null = uniquePhone()) {
  const email = uniqueEmail(role);
  const u = await createUser(lab.database.db, systemActor(lab.organizationId), {
    first_name: uniqueWord('St'),
    last_name: 'Staff',
    email,
    role,
    password: PASSWORD,
    phone,
  });
  return { id: u.id, email, phone };
}

describe('who may see the lab email and SMS settings', () => {
  it('needs system_settings: a validator is refused; another lab sees its own, unset', async () => {
    for (const url of ['/api/settings/email', '/api/settings/sms', '/api/settings/deliveries'])
      expect((await validator.get(url)).statusCode).toBe(403);
    expect((await validator.put('/api/settings/email', smtpBody())).statusCode).toBe(403);
    expect((await validator.post('/api/settings/email/test', { to: 'a@b.example' })).statusCode).toBe(403);
    expect((await validator.post('/api/settings/sms/test', { to: '9845012345' })).statusCode).toBe(403);
  });
});

describe('before a mail server or gateway is saved', () => {
  it('answers them unset, and refuses to turn email, SMS or report notifications on (400 naming the switch)', async () => {
    const email = await lab.admin.get('/api/settings/email');
    expect(email.statusCode).toBe(200);
    expect(email.json().email).toMatchObject({ configured: false, host: null, passwordSet: false });
    expect((await lab.admin.get('/api/settings/sms')).json().sms).toMatchObject({
      configured: false,
      apiKeySet: false,
    });

    // The spec's defaults have email and report notifications on; switching them off is always allowed.
    await setSwitches({ emailNotifications: false, reportNotifications: false, smsNotifications: false });
    expect(badFields(await lab.admin.put('/api/settings', { emailNotifications: true }))).toEqual([
      'emailNotifications',
    ]);
    expect(badFields(await lab.admin.put('/api/settings', { smsNotifications: true }))).toEqual(['smsNotifications']);
    expect(badFields(await lab.admin.put('/api/settings', { reportNotifications: true }))).toEqual([
      'reportNotifications',
    ]);
    const s = (await lab.admin.get('/api/settings')).json().settings;
    expect(s).toMatchObject({ emailNotifications: false, smsNotifications: false, reportNotifications: false });

    // Reset puts the defaults back, but does not turn on a switch whose channel is not set up.
    const reset = await lab.admin.post('/api/settings/reset');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().settings).toMatchObject({ emailNotifications: false, reportNotifications: false });

    expect((await lab.admin.post('/api/settings/email/test', { to: 'a@b.example' })).statusCode).toBe(409);
    expect((await lab.admin.post('/api/settings/sms/test', { to: '9845012345' })).statusCode).toBe(409);
  });
});

describe('saving the mail server (SMTP)', () => {
  it('refuses each bad field with 400 naming it, and saves nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ port: 0 }, 'port'],
      [{ port: 65536 }, 'port'],
      [{ port: 'twenty-five' }, 'port'],
      [{ port: 25.5 }, 'port'],
      [{ fromAddress: 'reports at lab' }, 'fromAddress'],
      [{ fromAddress: '' }, 'fromAddress'],
      [{ host: '' }, 'host'],
      [{ host: 'smtp server.example' }, 'host'],
      [{ security: 'ssl' }, 'security'],
      [{ password: '' }, 'password'],
      [{ password: 'line\nbreak' }, 'password'],
    ];
    for (const [over, field] of cases)
      expect(badFields(await lab.admin.put('/api/settings/email', smtpBody(over))), JSON.stringify(over)).toEqual([
        field,
      ]);
    expect((await lab.admin.get('/api/settings/email')).json().email.configured).toBe(false);
    expect(await auditRowsFor(lab, 'email_settings', lab.organizationId)).toEqual([]);
  });

  it('keeps the password write-only: never answered, kept when left out, removed by null; audited as (set)/(changed)', async () => {
    const first = await saveSmtp();
    expect(first.body).not.toContain(SMTP_PASSWORD);
    expect(first.json().email).toEqual({
      configured: true,
      host: '127.0.0.1',
      port: smtpPort,
      security: 'none',
      user: 'lab-mailer',
      passwordSet: true,
      fromAddress: 'reports@testlab.example',
      fromName: 'Test Lab',
      updatedAt: expect.any(String),
    });
    const got = await lab.admin.get('/api/settings/email');
    expect(got.body).not.toContain(SMTP_PASSWORD);
    expect(got.json().email.passwordSet).toBe(true);

    // PUT what GET answered (no password): the saved one is kept and still used.
    const again = await lab.admin.put('/api/settings/email', { ...got.json().email, fromName: 'The Test Lab' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().email).toMatchObject({ passwordSet: true, fromName: 'The Test Lab' });
    const test = await lab.admin.post('/api/settings/email/test', { to: 'desk@clinic.example' });
    expect(test.json().test.ok, test.body).toBe(true);
    expect(auths).toEqual([{ user: 'lab-mailer', pass: SMTP_PASSWORD }]);

    const cleared = await lab.admin.put('/api/settings/email', smtpBody({ password: null }));
    expect(cleared.json().email.passwordSet).toBe(false);
    await saveSmtp({ password: 'another-Secret-77' });
    await saveSmtp(); // back to SMTP_PASSWORD

    const audit = await auditRowsFor(lab, 'email_settings', lab.organizationId);
    const text = JSON.stringify(audit);
    expect(text).not.toContain(SMTP_PASSWORD);
    expect(text).not.toContain('another-Secret-77');
    expect(
      audit.map((a) => [
        a.action,
        JSON.parse(a.old_values ?? 'null')?.smtpPassword,
        JSON.parse(a.new_values ?? '{}').smtpPassword,
      ]),
    ).toEqual([
      ['create', undefined, '(set)'],
      ['update', undefined, undefined],
      ['update', '(set)', '(removed)'],
      ['update', '(none)', '(set)'],
      ['update', '(set)', '(changed)'],
    ]);
    expect(JSON.parse(audit[1]!.old_values!)).toEqual({ fromName: 'Test Lab' });
    expect(JSON.parse(audit[1]!.new_values!)).toEqual({ fromName: 'The Test Lab' });
  });
});

describe('Send Test Email', () => {
  it('arrives at the local mail server with the subject and recipient, and answers the server reply', async () => {
    await saveSmtp();
    const res = await lab.admin.post('/api/settings/email/test', { to: 'desk@clinic.example' });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json<{ test: SendOutcome }>().test;
    expect(t.ok).toBe(true);
    expect(t.message).toBe('The mail server accepted the message (250)');
    expect(res.body).not.toContain(SMTP_PASSWORD);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      from: 'reports@testlab.example',
      to: ['desk@clinic.example'],
      subject: 'Test email from Test Lab',
    });
    expect(badFields(await lab.admin.post('/api/settings/email/test', { to: 'not an address' }))).toEqual(['to']);
  });

  it('says clearly when the server refuses the connection or the sign-in', async () => {
    await saveSmtp({ port: await freePort() });
    const refused = (await lab.admin.post('/api/settings/email/test', { to: 'desk@clinic.example' })).json().test;
    expect(refused.ok).toBe(false);
    expect(refused.message).toBe('The mail server could not be reached: connection refused');

    await saveSmtp({ user: 'refused' });
    const auth = (await lab.admin.post('/api/settings/email/test', { to: 'desk@clinic.example' })).json().test;
    expect(auth.ok).toBe(false);
    expect(auth.message).toBe('The mail server refused the user name or password');
    expect(auth.message).not.toContain(SMTP_PASSWORD);
    expect(mails).toEqual([]);
    await saveSmtp();
  });

  // A socket question, not a database one: it waits out the whole SEND_TIMEOUT_MS, so once (SQLite) is enough.
  it.runIf(ENGINE === 'sqlite')(
    'gives up on a server that never answers after SEND_TIMEOUT_MS, not before',
    async () => {
      await saveSmtp({ port: silentPort });
      const t0 = Date.now();
      const res = (await lab.admin.post('/api/settings/email/test', { to: 'desk@clinic.example' })).json().test;
      expect(res.ok).toBe(false);
      // It waited for the greeting as long as it promises (a busy machine only makes it later).
      expect(Date.now() - t0).toBeGreaterThanOrEqual(SEND_TIMEOUT_MS - 1000);
      expect(res.message).toBe('The mail server could not be reached: no answer within 10 s');
      await saveSmtp();
    },
    30_000,
  );
});

describe('saving the SMS gateway', () => {
  it('refuses each bad field with 400 naming it, and saves nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ urlTemplate: `http://127.0.0.1:${gatewayPort}/send?text={message}` }, 'urlTemplate'],
      [{ urlTemplate: `http://127.0.0.1:${gatewayPort}/send?to={to}` }, 'urlTemplate'],
      [{ urlTemplate: 'ftp://sms.example/{to}/{message}' }, 'urlTemplate'],
      [{ urlTemplate: 'javascript:alert(1)//{to}{message}' }, 'urlTemplate'],
      [{ urlTemplate: 'sms.example/send?to={to}&m={message}' }, 'urlTemplate'],
      [{ urlTemplate: '' }, 'urlTemplate'],
      [{ method: 'PUT' }, 'method'],
      [{ bodyTemplate: 'to={to}' }, 'bodyTemplate'],
      [{ headerName: 'X Api Key' }, 'headerName'],
      [{ headerName: 'X-Api-Key', apiKey: null }, 'apiKey'],
      [{ apiKey: 'a\r\nInjected: 1' }, 'apiKey'],
      [{ method: 'POST', urlTemplate: `http://127.0.0.1:${gatewayPort}/send`, bodyTemplate: 'to={to}' }, 'urlTemplate'],
    ];
    for (const [over, field] of cases)
      expect(badFields(await lab.admin.put('/api/settings/sms', smsBody(over))), JSON.stringify(over)).toEqual([field]);
    expect((await lab.admin.get('/api/settings/sms')).json().sms.configured).toBe(false);
    expect(await auditRowsFor(lab, 'sms_gateway', lab.organizationId)).toEqual([]);
  });

  it('keeps the API key write-only and out of the audit trail', async () => {
    const res = await saveSms();
    expect(res.body).not.toContain(API_KEY);
    expect(res.json().sms).toMatchObject({ configured: true, apiKeySet: true, method: 'GET' });
    const got = await lab.admin.get('/api/settings/sms');
    expect(got.body).not.toContain(API_KEY);
    const again = await lab.admin.put('/api/settings/sms', got.json().sms);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().sms.apiKeySet).toBe(true);
    const audit = JSON.stringify(await auditRowsFor(lab, 'sms_gateway', lab.organizationId));
    expect(audit).not.toContain(API_KEY);
    expect(audit).toContain('(set)');
  });
});

describe('Send Test SMS', () => {
  it('calls the gateway with the number and the text URL-encoded, and answers its HTTP status without the key', async () => {
    await saveSms();
    const res = await lab.admin.post('/api/settings/sms/test', { to: '+91 98450-12345' });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json<{ test: SendOutcome }>().test;
    expect(t).toMatchObject({ ok: true, status: 200 });
    expect(res.body).not.toContain(API_KEY);
    // The status alone: the gateway's body is never shown back.
    expect(t.message).toBe('HTTP 200');
    expect(hits).toHaveLength(1);
    const url = new URL(hits[0]!.url, 'http://gateway');
    expect(url.searchParams.get('to')).toBe('+919845012345');
    expect(url.searchParams.get('text')).toBe('Test SMS from Test Lab (lims): the SMS gateway works.');
    expect(url.searchParams.get('key')).toBe(API_KEY);
    expect(hits[0]!.url).toContain('to=%2B919845012345');
    expect(hits[0]!.url).toContain('text=Test%20SMS%20from%20Test%20Lab');
  });

  it('answers the gateway status of a refusal, and a clear error for a closed port', async () => {
    gatewayStatus = 503;
    const refused = (await lab.admin.post('/api/settings/sms/test', { to: '9845012345' })).json().test;
    expect(refused).toMatchObject({ ok: false, status: 503 });
    expect(refused.message).toBe('The SMS gateway answered HTTP 503');
    expect(refused.message).not.toContain(API_KEY);

    await saveSms({ urlTemplate: `http://127.0.0.1:${await freePort()}/send?to={to}&text={message}` });
    const closed = (await lab.admin.post('/api/settings/sms/test', { to: '9845012345' })).json().test;
    expect(closed).toMatchObject({ ok: false, status: null });
    expect(closed.message).toBe('The SMS gateway could not be reached: connection refused');
    await saveSms();
  });

  it('POSTs a JSON or form body with the values encoded for it, and the key in the header', () => {
    const row: SmsRow = {
      organization_id: 1,
      method: 'POST',
      url_template: 'https://sms.example/v1/send?sender=LAB',
      body_template: '{"to":"{to}","text":"{message}"}',
      body_type: 'json',
      header_name: 'Authorization',
      api_key: 'Bearer abc',
      updated_at: '',
      updated_by: null,
    };
    const message = 'Rs "100" & 50% due\nline';
    const json = smsRequest(row, { to: '98450 12345', message });
    expect(JSON.parse(json.init.body as string)).toEqual({ to: '9845012345', text: message });
    expect(json.init.headers).toMatchObject({ Authorization: 'Bearer abc', 'content-type': 'application/json' });
    const form = smsRequest(
      { ...row, body_type: 'form', body_template: 'to={to}&msg={message}' },
      { to: '9845012345', message },
    );
    expect(new URLSearchParams(form.init.body as string).get('msg')).toBe(message);
    const get = smsRequest(
      { ...row, method: 'GET', body_template: null, url_template: 'http://g.example/s?m={message}&k={key}' },
      { to: '1', message: 'a&b=c #d' },
    );
    expect(get.url).toBe('http://g.example/s?m=a%26b%3Dc%20%23d&k=Bearer%20abc');
    expect(get.init.body).toBeUndefined();
  });
});

describe('notifications by email and SMS', () => {
  it('emails a critical result to every validator and lab manager with a real address, after commit, by the sender', async () => {
    await saveSmtp();
    await saveSms();
    await setSwitches({ emailNotifications: true, smsNotifications: false });
    const placeholder = await staff('validator', null);
    await lab.database.db
      .updateTable('users')
      .set({ email: `doctor-${placeholder.id}@no-email.invalid` })
      .where('id', '=', placeholder.id)
      .execute();
    const before = await maxOutboxId();
    const p = await newPatient();
    const s = await collect(p.id);
    await enter(s.id, '452');

    const queued = (await rowsAfter(before)).filter((r) => r.kind === 'critical_result');
    expect(queued.length).toBeGreaterThan(0);
    expect(queued.every((r) => r.status === 'pending' && r.channel === 'email')).toBe(true);
    expect(mails).toEqual([]); // nothing is sent by the request itself
    const recipients = queued.map((r) => r.recipient);
    expect(recipients).toContain(validator.email);
    expect(recipients).toContain(manager.email);
    expect(recipients).not.toContain(tech.email);
    expect(recipients.some((r) => r.endsWith('@no-email.invalid'))).toBe(false);

    const report = await deliverDue(lab.database.db, LOCAL);
    expect(report.sent).toBe(queued.length);
    const got = mails.filter((m) => m.subject === '[Test Lab] Critical result: Fasting Blood Sugar');
    expect(got.map((m) => m.to[0]).sort()).toEqual([...recipients].sort());
    const mine = got.find((m) => m.to[0] === validator.email)!;
    expect(mine.from).toBe('reports@testlab.example');
    expect(mine.body).toContain(`${p.name}, sample ${s.sample_id}: Fasting Blood Sugar is beyond the critical limits`);
    expect(mine.body).not.toContain('452');
    expect((await rowsAfter(before)).every((r) => r.status === 'sent' && r.sent_at && r.attempts === 1)).toBe(true);
    // Delivered once: a second run finds nothing.
    expect((await deliverDue(lab.database.db, LOCAL)).events).toEqual([]);
  });

  it('queues nothing with the email switch off', async () => {
    await setSwitches({ emailNotifications: false, smsNotifications: false });
    const before = await maxOutboxId();
    const s = await collect((await newPatient()).id);
    await enter(s.id, '455');
    expect(await rowsAfter(before)).toEqual([]);
    await deliverDue(lab.database.db, LOCAL);
    expect(mails).toEqual([]);
  });

  it('texts high-priority notifications to staff with a phone (SMS on), not the low ones', async () => {
    await setSwitches({ emailNotifications: false, smsNotifications: true });
    const v = await staff('validator');
    const before = await maxOutboxId();
    const s = await collect((await newPatient()).id);
    await enter(s.id, '460');
    await notify(lab.database.db, lab.organizationId, {
      kind: 'import_finished',
      what: 'Tests',
      rows: 3,
      startedBy: v.id,
    });
    const queued = await rowsAfter(before);
    expect(queued.every((r) => r.channel === 'sms' && r.kind === 'critical_result')).toBe(true);
    expect(queued.map((r) => r.recipient)).toContain(v.phone);
    await deliverDue(lab.database.db, LOCAL);
    const mine = hits.find((h) => new URL(h.url, 'http://g').searchParams.get('to') === v.phone)!;
    const text = new URL(mine.url, 'http://g').searchParams.get('text')!;
    expect(text).toMatch(/^Test Lab: Critical result: Fasting Blood Sugar\. /);
    expect(text).toContain(s.sample_id);
    expect(text.length).toBeLessThanOrEqual(306);
    await setSwitches({ smsNotifications: false });
  });

  it('sends each message once when two senders run at once (as two servers on one database)', async () => {
    await setSwitches({ emailNotifications: true });
    const who = await staff('lab_manager');
    const before = await maxOutboxId();
    for (let i = 0; i < 6; i++)
      await notify(lab.database.db, lab.organizationId, {
        kind: 'import_finished',
        what: `Batch ${i}`,
        rows: i,
        startedBy: who.id,
      });
    expect(await rowsAfter(before)).toHaveLength(6);
    // A stopping server claims nothing more.
    expect((await deliverDue(lab.database.db, { ...LOCAL, signal: AbortSignal.abort() })).events).toEqual([]);
    const [a, b] = await Promise.all([deliverDue(lab.database.db, LOCAL), deliverDue(lab.database.db, LOCAL)]);
    expect(a.sent + b.sent).toBe(6);
    const got = mails
      .filter((m) => m.to[0] === who.email)
      .map((m) => m.subject)
      .sort();
    expect(got).toEqual([0, 1, 2, 3, 4, 5].map((i) => `[Test Lab] Import finished: Batch ${i}`));
  });
});

describe('report notifications', () => {
  it('email and text the patient and the referring doctor when every result is verified, once', async () => {
    await setSwitches({ emailNotifications: false, smsNotifications: false, reportNotifications: true });
    const doctor = await staff('doctor');
    const patientEmail = uniqueEmail('patient');
    const patientPhone = uniquePhone();
    const p = await newPatient({ email: patientEmail, phone: patientPhone });
    const bill = await lab.admin.post('/api/bills', {
      patient_id: p.id,
      doctor_id: doctor.id,
      items: [{ item_type: 'test', item_id: fbs }],
    });
    expect(bill.statusCode, bill.body).toBe(201);
    const s = await collect(p.id, { bill_id: bill.json().bill.id });
    const r = await enter(s.id, '95');
    const before = await maxOutboxId();
    const v = await validator.put(`/api/test-results/${r.id}/verify`);
    expect(v.statusCode, v.body).toBe(200);

    const queued = (await rowsAfter(before)).filter((x) => x.kind === 'report_ready');
    expect(queued.map((x) => [x.channel, x.recipient]).sort()).toEqual(
      [
        ['email', patientEmail],
        ['email', doctor.email],
        ['sms', patientPhone],
        ['sms', doctor.phone],
      ].sort(),
    );
    await deliverDue(lab.database.db, LOCAL);
    const toPatient = mails.find((m) => m.to[0] === patientEmail)!;
    expect(toPatient.subject).toBe('Your lab report is ready: Test Lab');
    expect(toPatient.body).toContain(`Dear ${p.name},`);
    expect(toPatient.body).toContain(`sample ${s.sample_id}`);
    expect(toPatient.body).not.toContain('95');
    expect(mails.find((m) => m.to[0] === doctor.email)!.subject).toBe(`Report ready: ${p.name} (${s.sample_id})`);
    const texted = hits.map((h) => new URL(h.url, 'http://g').searchParams.get('to'));
    expect(texted.sort()).toEqual([patientPhone, doctor.phone].sort());
  });

  it('wait for the call of a critical value, and are not sent with the switch off', async () => {
    const p = await newPatient({ email: uniqueEmail('crit') });
    const s = await collect(p.id);
    const r = await enter(s.id, '30');
    const before = await maxOutboxId();
    expect((await validator.put(`/api/test-results/${r.id}/verify`)).statusCode).toBe(200);
    expect((await rowsAfter(before)).filter((x) => x.kind === 'report_ready')).toEqual([]);
    const call = await validator.post(`/api/test-results/${r.id}/critical-call`, {
      called_to: 'Dr. Rao (physician)',
      read_back: true,
    });
    expect(call.statusCode, call.body).toBe(201);
    expect(
      (await rowsAfter(before))
        .filter((x) => x.kind === 'report_ready')
        .map((x) => x.channel)
        .sort(),
    ).toEqual(['email']);

    await setSwitches({ reportNotifications: false });
    const q = await newPatient({ email: uniqueEmail('off') });
    const s2 = await collect(q.id);
    const r2 = await enter(s2.id, '90');
    const mark = await maxOutboxId();
    expect((await validator.put(`/api/test-results/${r2.id}/verify`)).statusCode).toBe(200);
    expect(await rowsAfter(mark)).toEqual([]);
    await deliverDue(lab.database.db, LOCAL);
  });
});

describe('the outbox sender', () => {
  it('logs ids, channels and error codes only: never an address, a number, a text or a key', async () => {
    await setSwitches({ emailNotifications: true, smsNotifications: true });
    const who = await staff('lab_manager');
    gatewayStatus = 500;
    const p = await newPatient();
    const s = await collect(p.id);
    const before = await maxOutboxId();
    await enter(s.id, '470');
    const lines: string[] = [];
    const log = (level: string) => (obj: object, msg: string) => lines.push(JSON.stringify({ level, ...obj, msg }));
    const { scheduler: sender } = startServerJobs(lab.database, ['outbox-send'], {
      ...LOCAL,
      periodMs: 100,
      log: { info: log('info'), warn: log('warn'), error: log('error') },
    });
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('outbox messages handled')); i++)
      await new Promise((r) => setTimeout(r, 50));
    await sender.stop();
    expect(lines.some((l) => l.includes('"code":"HTTP_500"'))).toBe(true);
    const text = lines.join('\n');
    for (const secret of [who.email, who.phone!, p.name, s.sample_id, API_KEY, SMTP_PASSWORD, '@'])
      expect(text).not.toContain(secret);
    // Leave no retry behind for the next test.
    await lab.database.db
      .updateTable('outbox')
      .set({ status: 'failed' })
      .where('id', '>', before)
      .where('status', '=', 'pending')
      .execute();
    await setSwitches({ smsNotifications: false });
  });

  it('retries with backoff, then marks the message failed; the Notification section counts it without the address', async () => {
    await setSwitches({ emailNotifications: true });
    const who = await staff('lab_manager');
    await saveSmtp({ port: await freePort() });
    const before = await maxOutboxId();
    await notify(lab.database.db, lab.organizationId, {
      kind: 'import_failed',
      what: 'Patients',
      error: 'Line 2',
      startedBy: who.id,
    });
    const [queued] = await rowsAfter(before);
    expect(queued).toBeDefined();
    let now = Date.now();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const r = await deliverDue(lab.database.db, { ...LOCAL, now: new Date(now) });
      const ev = r.events.find((e) => e.id === Number(queued!.id));
      expect(ev, `attempt ${attempt}`).toMatchObject({
        attempt,
        outcome: attempt < MAX_ATTEMPTS ? 'retry' : 'failed',
        code: 'ECONNREFUSED',
      });
      const row = (await rowsAfter(before))[0]!;
      expect(row.attempts).toBe(attempt);
      expect(row.status).toBe(attempt < MAX_ATTEMPTS ? 'pending' : 'failed');
      if (attempt < MAX_ATTEMPTS) {
        // Not before its backoff has passed.
        expect(
          (await deliverDue(lab.database.db, { ...LOCAL, now: new Date(now + 1_000) })).events.some(
            (e) => e.id === Number(queued!.id),
          ),
        ).toBe(false);
        now += RETRY_DELAYS_MS[attempt - 1]! + 1_000;
      }
    }
    const failed = (await rowsAfter(before))[0]!;
    expect(failed.last_error).toBe('The mail server could not be reached: connection refused');
    expect(failed.last_error).not.toContain(who.email);
    expect(
      (await deliverDue(lab.database.db, { ...LOCAL, now: new Date(now + 86_400_000) })).events.some(
        (e) => e.id === Number(queued!.id),
      ),
    ).toBe(false);

    const res = await lab.admin.get('/api/settings/deliveries');
    expect(res.statusCode).toBe(200);
    const d = res.json<Deliveries>();
    expect(d.summary.failed).toBeGreaterThanOrEqual(1);
    expect(d.summary.sent).toBeGreaterThan(0);
    expect(d.recent[0]).toMatchObject({
      id: Number(queued!.id),
      channel: 'email',
      kind: 'import_failed',
      status: 'failed',
      attempts: MAX_ATTEMPTS,
    });
    expect(res.body).not.toContain('@');
    await saveSmtp();
  });

  it('keeps each lab to its own settings and deliveries', async () => {
    const other = await otherLabAdmin(lab);
    expect((await other.admin.get('/api/settings/email')).json().email.configured).toBe(false);
    expect((await other.admin.get('/api/settings/sms')).json().sms.configured).toBe(false);
    const d = (await other.admin.get('/api/settings/deliveries')).json<Deliveries>();
    expect(d).toEqual({ summary: { sent: 0, waiting: 0, failed: 0 }, recent: [] });
    expect((await other.admin.post('/api/settings/email/test', { to: 'x@y.example' })).statusCode).toBe(409);
  });
});
