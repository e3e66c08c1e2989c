import type { FastifyInstance } from 'fastify';
import { invoicesApi } from '../../shared/api/invoices.js';
import { createInvoice, getInvoice, issueInvoice, listInvoices } from '../../core/invoices/service.js';
import { cancelInvoice, deleteInvoice, markInvoicePaid } from '../../core/invoices/settle.js';
import { getOrganization } from '../../core/settings/organization.js';
import { invoicePdf } from '../../core/pdf/invoice.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendPdf } from '../files.js';

export default async function invoiceRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, invoicesApi.list, async (req) => listInvoices(db, org(req), req.query));
  route(app, invoicesApi.get, async (req) => ({ invoice: await getInvoice(db, org(req), req.params.id) }));
  route(app, invoicesApi.pdf, async (req, reply) => {
    const inv = await getInvoice(db, org(req), req.params.id);
    const pdf = await invoicePdf(await getOrganization(db, org(req)), inv);
    return sendPdf(reply, `${inv.invoice_number ?? `draft-invoice-${inv.id}`}.pdf`, pdf, req.query.download === '1');
  });
  route(app, invoicesApi.create, async (req) => ({ invoice: await createInvoice(db, actorOf(req), req.body) }));
  route(app, invoicesApi.issue, async (req) => ({
    invoice: await issueInvoice(db, actorOf(req), req.params.id, req.body.invoice_date),
  }));
  route(app, invoicesApi.markPaid, async (req) => ({
    invoice: await markInvoicePaid(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, invoicesApi.cancel, async (req) => ({
    invoice: await cancelInvoice(db, actorOf(req), req.params.id, req.body.reason),
  }));
  route(app, invoicesApi.remove, async (req) => ({ invoice: await deleteInvoice(db, actorOf(req), req.params.id) }));
}
