import type { FastifyInstance } from 'fastify';
import { centresApi } from '../../shared/api/centres.js';
import {
  addShareRule,
  approveNextBill,
  createCentre,
  getCentre,
  getCentreSettings,
  listApprovals,
  listCentrePatients,
  listCentres,
  listShareRules,
  removeShareRule,
  updateCentre,
  updateCentreSettings,
} from '../../core/centres/service.js';
import { centreBills, centreReceipts, centreStatement, receiveCentrePayment } from '../../core/centres/money.js';
import { centreStatementPdf } from '../../core/pdf/centre-statement.js';
import { sendCentreStatement } from '../../core/centres/statement-mail.js';
import { getOrganization } from '../../core/settings/organization.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendPdf } from '../files.js';

export default async function centreRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, centresApi.list, async (req) => ({ centres: await listCentres(db, org(req), req.query) }));
  route(app, centresApi.get, async (req) => ({ centre: await getCentre(db, org(req), req.params.id) }));
  route(app, centresApi.create, async (req) => ({ centre: await createCentre(db, actorOf(req), req.body) }));
  route(app, centresApi.update, async (req) => ({
    centre: await updateCentre(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, centresApi.shareRules, async (req) => ({ rules: await listShareRules(db, org(req), req.params.id) }));
  route(app, centresApi.addShareRule, async (req) => ({
    rules: await addShareRule(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, centresApi.removeShareRule, async (req) => ({
    rules: await removeShareRule(db, actorOf(req), req.params.id, req.params.ruleId),
  }));
  route(app, centresApi.settings, async (req) => ({ settings: await getCentreSettings(db, org(req)) }));
  route(app, centresApi.updateSettings, async (req) => ({
    settings: await updateCentreSettings(db, actorOf(req), req.body),
  }));
  route(app, centresApi.approvals, async (req) => ({ approvals: await listApprovals(db, org(req), req.params.id) }));
  route(app, centresApi.approve, async (req) => ({
    approvals: await approveNextBill(db, actorOf(req), req.params.id, req.body.reason),
  }));
  route(app, centresApi.bills, async (req) => ({ bills: await centreBills(db, org(req), req.params.id) }));
  route(app, centresApi.patients, async (req) => ({ patients: await listCentrePatients(db, org(req), req.params.id) }));
  route(app, centresApi.receipts, async (req) => ({ receipts: await centreReceipts(db, org(req), req.params.id) }));
  route(app, centresApi.receive, async (req) => ({
    receipt: await receiveCentrePayment(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, centresApi.statement, async (req) => ({
    statement: await centreStatement(db, org(req), req.params.id, req.query.from, req.query.to),
  }));
  route(app, centresApi.sendStatement, async (req) => ({
    sent: await sendCentreStatement(db, actorOf(req), req.params.id, req.body.from, req.body.to),
  }));
  route(app, centresApi.statementPdf, async (req, reply) => {
    const st = await centreStatement(db, org(req), req.params.id, req.query.from, req.query.to);
    const pdf = await centreStatementPdf(await getOrganization(db, org(req)), st);
    return sendPdf(reply, `centre-statement-${st.centre.id}-${st.from}-${st.to}.pdf`, pdf, req.query.download === '1');
  });
}
