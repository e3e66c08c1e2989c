import type { FastifyInstance } from 'fastify';
import { payersApi } from '../../shared/api/payers.js';
import {
  addPayerPrice,
  createPayer,
  deletePayer,
  getPayer,
  listPayerPrices,
  listPayers,
  payerStatement,
  removePayerPrice,
  updatePayer,
} from '../../core/payers/service.js';
import { getOrganization } from '../../core/settings/organization.js';
import { payerStatementPdf } from '../../core/pdf/invoice.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendPdf } from '../files.js';

export default async function payerRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, payersApi.list, async (req) => listPayers(db, org(req), req.query));
  route(app, payersApi.get, async (req) => ({ payer: await getPayer(db, org(req), req.params.id) }));
  route(app, payersApi.create, async (req) => ({ payer: await createPayer(db, actorOf(req), req.body) }));
  route(app, payersApi.update, async (req) => ({
    payer: await updatePayer(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, payersApi.remove, async (req) => ({ payer: await deletePayer(db, actorOf(req), req.params.id) }));
  route(app, payersApi.prices, async (req) => ({ prices: await listPayerPrices(db, org(req), req.params.id) }));
  route(app, payersApi.addPrice, async (req) => ({
    prices: await addPayerPrice(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, payersApi.removePrice, async (req) => ({
    prices: await removePayerPrice(db, actorOf(req), req.params.id, req.params.priceId),
  }));
  route(app, payersApi.statement, async (req) => ({
    statement: await payerStatement(db, org(req), req.params.id, req.query.from, req.query.to),
  }));
  route(app, payersApi.statementPdf, async (req, reply) => {
    const st = await payerStatement(db, org(req), req.params.id, req.query.from, req.query.to);
    const pdf = await payerStatementPdf(await getOrganization(db, org(req)), st);
    return sendPdf(reply, `statement-${st.payer.id}-${st.from}-${st.to}.pdf`, pdf, req.query.download === '1');
  });
}
