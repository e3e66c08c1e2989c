import type { FastifyInstance } from 'fastify';
import { closingsApi, paymentsApi } from '../../shared/api/payments.js';
import {
  bounceLedgerCheque,
  clearLedgerCheque,
  createLedgerPayment,
  getLedgerEntry,
  ledgerSummary,
  listLedger,
  patientAdvance,
  refundLedgerPayment,
  useLedgerAdvance,
} from '../../core/payments/service.js';
import {
  closeDay,
  getClosing,
  getClosingSettings,
  listClosings,
  updateClosingSettings,
} from '../../core/payments/closing.js';
import { closingPdf } from '../../core/payments/print.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendPdf } from '../files.js';

export default async function paymentRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, paymentsApi.list, async (req) => {
    const org = actorOf(req).organizationId;
    const [page, summary] = await Promise.all([listLedger(db, org, req.query), ledgerSummary(db, org, req.query)]);
    return { ...page, summary };
  });
  route(app, paymentsApi.get, async (req) => ({
    payment: await getLedgerEntry(db, actorOf(req).organizationId, req.params.id),
  }));
  route(app, paymentsApi.create, async (req) => ({ payment: await createLedgerPayment(db, actorOf(req), req.body) }));
  route(app, paymentsApi.useAdvance, async (req) => ({ payment: await useLedgerAdvance(db, actorOf(req), req.body) }));
  route(app, paymentsApi.refund, async (req) => ({
    payment: await refundLedgerPayment(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, paymentsApi.clear, async (req) => ({ payment: await clearLedgerCheque(db, actorOf(req), req.params.id) }));
  route(app, paymentsApi.bounce, async (req) => ({
    payment: await bounceLedgerCheque(db, actorOf(req), req.params.id, req.body.reason),
  }));
  route(app, paymentsApi.patientAdvance, async (req) => patientAdvance(db, actorOf(req).organizationId, req.params.id));

  route(app, closingsApi.get, async (req) => ({ closing: await getClosing(db, actorOf(req), req.query) }));
  route(app, closingsApi.history, async (req) => ({ closings: await listClosings(db, actorOf(req), req.query) }));
  route(app, closingsApi.close, async (req) => ({ closing: await closeDay(db, actorOf(req), req.body) }));
  route(app, closingsApi.pdf, async (req, reply) => {
    const { pdf, name } = await closingPdf(db, actorOf(req), req.params.id);
    return sendPdf(reply, name, pdf, req.query.download === '1');
  });
  route(app, closingsApi.settings, async (req) => ({
    settings: await getClosingSettings(db, actorOf(req).organizationId),
  }));
  route(app, closingsApi.updateSettings, async (req) => ({
    settings: await updateClosingSettings(db, actorOf(req), req.body),
  }));
}
