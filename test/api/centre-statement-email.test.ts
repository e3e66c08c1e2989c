import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLab, type TestLab } from '../helpers.js';
import { auditRowsFor, createPatient } from './support.js';
import { systemActor } from '../../src/core/context.js';
import { createBill } from '../../src/core/billing/service.js';
import { createCentre } from '../../src/core/centres/service.js';
import { previousMonth, queueMonthlyStatements } from '../../src/core/centres/statement-mail.js';
import { deliverDue } from '../../src/core/messaging/sender.js';
import { billCreateSchema } from '../../src/shared/schemas/bills.js';
import { centreCreateSchema } from '../../src/shared/schemas/centres.js';

/**
 * A centre's statement by email: the monthly job queues last month's statement PDF once per centre
 * (again after a restart, or from two servers at once, it queues nothing more), "Send now" queues
 * any period, and the outbox sends the PDF as an attachment of the email.
 */
let lab: TestLab;
let smtp: SMTPServer;
const mails: { to: string[]; raw: string }[] = [];
let centreId = 0;
let payerId = 0;
/** 11:30 in Kolkata on 10 March 2026: last month is February. */
const NOW = new Date('2026-03-10T06:00:00Z');

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  lab = await makeLab({ allowPrivateOutbound: true });
  const actor = systemActor(lab.organizationId);
  const db = lab.database.db;
  const centre = await createCentre(
    db,
    actor,
    centreCreateSchema.parse({ name: 'Sunrise Clinic', email: 'accounts@sunrise.example', credit_days: 30 }),
  );
  centreId = centre.id;
  payerId = centre.payer_id;
  // A centre without an email gets nothing, and the job says nothing about it.
  await createCentre(db, actor, centreCreateSchema.parse({ name: 'No Mail Clinic' }));
  const test = (await lab.admin.post('/api/tests', { name: 'Mail test', code: 'MT1', price: 500 })).json<{
    test: { id: number };
  }>().test.id;
  const patient = await createPatient(lab.admin);
  const bill = await createBill(
    db,
    actor,
    billCreateSchema.parse({
      patient_id: patient.id,
      payer_id: payerId,
      items: [{ item_type: 'test', item_id: test }],
    }),
  );
  // Billed in February.
  await db.updateTable('bills').set({ created_at: '2026-02-14T06:00:00.000Z' }).where('id', '=', bill.id).execute();
});

afterAll(async () => {
  await lab?.close();
  await new Promise<void>((r) => smtp.close(() => r()));
});

const statementRows = () =>
  lab.database.db
    .selectFrom('outbox')
    .select(['id', 'recipient', 'subject', 'dedupe_key', 'attachment_name', 'attachment_base64', 'status'])
    .where('organization_id', '=', lab.organizationId)
    .where('kind', '=', 'centre_statement')
    .orderBy('id')
    .execute();

describe('Centre statements by email', () => {
  it('names last month from the lab day, across a year end', () => {
    expect(previousMonth('2026-03-10')).toEqual({ month: '2026-02', from: '2026-02-01', to: '2026-02-28' });
    expect(previousMonth('2026-01-01')).toEqual({ month: '2025-12', from: '2025-12-01', to: '2025-12-31' });
  });

  it('queues nothing while the lab has no mail server, and refuses Send now with the reason', async () => {
    expect(await queueMonthlyStatements(lab.database.db, NOW)).toBe(0);
    const res = await lab.admin.post(`/api/centres/${centreId}/statement/send`, {
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<{ code: string }>().code).toBe('NO_MAIL_SERVER');
    expect(await statementRows()).toEqual([]);
  });

  it("queues last month's statement once per centre, after a restart and from two servers at once", async () => {
    const port = (smtp.server.address() as AddressInfo).port;
    const saved = await lab.admin.put('/api/settings/email', {
      host: '127.0.0.1',
      port,
      security: 'none',
      fromAddress: 'accounts@lab.example',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const db = lab.database.db;
    const [a, b] = await Promise.all([queueMonthlyStatements(db, NOW), queueMonthlyStatements(db, NOW)]);
    expect(a + b).toBe(1);
    expect(await queueMonthlyStatements(db, NOW)).toBe(0);
    const rows = await statementRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      recipient: 'accounts@sunrise.example',
      dedupe_key: `centre_statement:${centreId}:2026-02`,
      attachment_name: 'statement-2026-02-01-2026-02-28.pdf',
    });
    const pdf = Buffer.from(rows[0]!.attachment_base64!, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The next month is another statement.
    expect(await queueMonthlyStatements(db, new Date('2026-04-02T06:00:00Z'))).toBe(1);
  });

  it('sends the PDF attached through the outbox', async () => {
    const report = await deliverDue(lab.database.db, { allowPrivateOutbound: true, now: new Date() });
    expect(report.failed + report.retrying, JSON.stringify(report.events)).toBe(0);
    const mail = mails.find((m) => m.raw.includes('statement-2026-02-01-2026-02-28.pdf'));
    expect(mail?.to).toEqual(['accounts@sunrise.example']);
    expect(mail!.raw).toMatch(/Content-Type: application\/pdf/i);
    expect(mail!.raw).toMatch(/Content-Disposition: attachment/i);
    expect((await statementRows()).every((r) => r.status === 'sent')).toBe(true);
  });

  it('Send now queues the chosen period every time it is pressed, audited; manage_bills only', async () => {
    const body = { from: '2026-02-01', to: '2026-02-28' };
    for (let i = 0; i < 2; i++) {
      const res = await lab.admin.post(`/api/centres/${centreId}/statement/send`, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ sent: { recipient: 'accounts@sunrise.example', ...body } });
    }
    const manual = (await statementRows()).filter((r) => r.dedupe_key === null);
    expect(manual).toHaveLength(2);
    const audit = await auditRowsFor(lab, 'centre_statement_email', centreId);
    expect(audit).toHaveLength(2);
    const viewer = await lab.as('receptionist');
    const refused = await viewer.post(`/api/centres/${centreId}/statement/send`, body);
    expect(refused.statusCode).toBe(403);
  });

  it('refuses Send now for a centre without an email, naming the field, and a backwards period', async () => {
    const other = (await lab.admin.get('/api/centres?search=No%20Mail')).json<{ centres: { id: number }[] }>()
      .centres[0]!.id;
    const res = await lab.admin.post(`/api/centres/${other}/statement/send`, { from: '2026-02-01', to: '2026-02-28' });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ details: { path: string }[] }>().details.map((d) => d.path)).toEqual(['email']);
    const back = await lab.admin.post(`/api/centres/${centreId}/statement/send`, {
      from: '2026-03-01',
      to: '2026-02-01',
    });
    expect(back.statusCode).toBe(400);
    expect(back.json<{ details: { path: string }[] }>().details.map((d) => d.path)).toEqual(['to']);
  });
});
