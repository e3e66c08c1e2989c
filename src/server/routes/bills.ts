import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { billsApi } from '../../shared/api/bills.js';
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
import { billPdfWithPortalPin } from '../../core/portal/pin.js';
import { exportBillsCsv } from '../../core/billing/export.js';
import { editBillItems } from '../../core/billing/edit.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendCsv, sendPdf } from '../files.js';

export async function billRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, billsApi.list, async (req) => listBills(db, actorOf(req).organizationId, req.query));
  route(app, billsApi.summary, async (req) => ({ summary: await billSummary(db, actorOf(req).organizationId) }));
  route(app, billsApi.export, async (req, reply) =>
    sendCsv(reply, 'bills', Readable.from(await exportBillsCsv(db, actorOf(req), req.query))),
  );
  route(app, billsApi.get, async (req) => ({ bill: await getBill(db, actorOf(req).organizationId, req.params.id) }));
  route(app, billsApi.pdf, async (req, reply) => {
    const { pdf, billNumber } =
      req.query.portal_pin === '1'
        ? await billPdfWithPortalPin(db, actorOf(req), req.params.id, `${req.protocol}://${req.host}/patient-portal`)
        : await billPdfById(db, actorOf(req).organizationId, req.params.id);
    // A slip with a PIN on it is never kept by a cache.
    if (req.query.portal_pin === '1') reply.header('cache-control', 'private, no-store');
    return sendPdf(reply, `${billNumber}.pdf`, pdf, req.query.download === '1');
  });
  route(app, billsApi.create, async (req) => ({ bill: await createBill(db, actorOf(req), req.body) }));
  route(app, billsApi.update, async (req) => ({ bill: await updateBill(db, actorOf(req), req.params.id, req.body) }));
  route(app, billsApi.updateItems, async (req) => {
    await editBillItems(db, actorOf(req), req.params.id, req.body);
    return { bill: await getBill(db, actorOf(req).organizationId, req.params.id) };
  });
  route(app, billsApi.remove, async (req) => ({ bill: await deleteBill(db, actorOf(req), req.params.id) }));
  route(app, billsApi.addPayment, async (req) => ({
    bill: await addPayment(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, billsApi.registerWithBill, async (req) => registerPatientWithBill(db, actorOf(req), req.body));
}

export default billRoutes;
