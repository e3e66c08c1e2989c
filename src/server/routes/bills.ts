import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '../../shared/schemas/common.js';
import {
  billCreateSchema,
  billListQuery,
  billUpdateSchema,
  paymentCreateSchema,
  registerWithBillSchema,
} from '../../shared/schemas/bills.js';
import {
  addPayment,
  billSummary,
  createBill,
  deleteBill,
  getBill,
  listBills,
  registerPatientWithBill,
  updateBill,
} from '../../core/billing/service.js';
import { billPdfById } from '../../core/billing/print.js';
import { actorOf } from '../plugins/auth.js';
import { Readable } from 'node:stream';
import { billsCsv } from '../../core/billing/export.js';
import { writeAudit } from '../../core/audit/audit.js';

export async function billRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;

  r.get('/api/bills', { schema: { querystring: billListQuery }, config: { access: 'view_bills' } }, async (req) =>
    listBills(db, actorOf(req).organizationId, req.query),
  );
  r.get('/api/bills/summary', { config: { access: 'view_bills' } }, async (req) => ({
    summary: await billSummary(db, actorOf(req).organizationId),
  }));
  r.get(
    '/api/bills/export',
    { schema: { querystring: billListQuery }, config: { access: 'view_bills' } },
    async (req, reply) => {
      const actor = actorOf(req);
      const { page: _p, limit: _l, ...filters } = req.query;
      await writeAudit(db, actor, { action: 'export', entity: 'bill', newValues: { format: 'csv', ...filters } });
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="bills-${new Date().toISOString().slice(0, 10)}.csv"`);
      return reply.send(Readable.from(billsCsv(db, actor.organizationId, req.query)));
    },
  );
  r.get('/api/bills/:id', { schema: { params: idParam }, config: { access: 'view_bills' } }, async (req) => ({
    bill: await getBill(db, actorOf(req).organizationId, req.params.id),
  }));
  r.get('/api/bills/:id/pdf', { schema: { params: idParam }, config: { access: 'view_bills' } }, async (req, reply) => {
    const { pdf, billNumber } = await billPdfById(db, actorOf(req).organizationId, req.params.id);
    const disposition = (req.query as { download?: string }).download === '1' ? 'attachment' : 'inline';
    return reply
      .type('application/pdf')
      .header('content-disposition', `${disposition}; filename="${billNumber}.pdf"`)
      .send(pdf);
  });
  r.post(
    '/api/bills',
    { schema: { body: billCreateSchema }, config: { access: 'create_bills' } },
    async (req, reply) => {
      reply.status(201);
      return { bill: await createBill(db, actorOf(req), req.body) };
    },
  );
  r.put(
    '/api/bills/:id',
    { schema: { params: idParam, body: billUpdateSchema }, config: { access: 'manage_bills' } },
    async (req) => ({
      bill: await updateBill(db, actorOf(req), req.params.id, req.body),
    }),
  );
  r.delete('/api/bills/:id', { schema: { params: idParam }, config: { access: 'delete_bills' } }, async (req) => ({
    bill: await deleteBill(db, actorOf(req), req.params.id),
  }));
  r.post(
    '/api/bills/:id/payments',
    { schema: { params: idParam, body: paymentCreateSchema }, config: { access: 'create_bills' } },
    async (req, reply) => {
      reply.status(201);
      return { bill: await addPayment(db, actorOf(req), req.params.id, req.body) };
    },
  );

  /** Register Patient with Bill (spec 2.11): patient and bill in one transaction. */
  r.post(
    '/api/registrations',
    { schema: { body: registerWithBillSchema }, config: { access: ['manage_patients', 'create_bills'] } },
    async (req, reply) => {
      reply.status(201);
      return registerPatientWithBill(db, actorOf(req), req.body);
    },
  );
}
