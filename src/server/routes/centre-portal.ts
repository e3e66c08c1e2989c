import type { FastifyInstance } from 'fastify';
import { centrePortalApi } from '../../shared/api/centre-portal.js';
import {
  portalAccount,
  portalBill,
  portalBills,
  portalCentre,
  portalLabelPdf,
  portalOrder,
  portalPatients,
  portalRegisterPatient,
  portalReportPdf,
  portalTests,
} from '../../core/centres/portal.js';
import { centreStatement } from '../../core/centres/money.js';
import { centreStatementPdf } from '../../core/pdf/centre-statement.js';
import { getOrganization } from '../../core/settings/organization.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendPdf } from '../files.js';

/** The centre portal: every handler starts from the centre the signed-in login is bound to. */
export default async function centrePortalRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, centrePortalApi.centre, async (req) => ({ centre: await portalAccount(db, actorOf(req)) }));
  route(app, centrePortalApi.tests, async (req) => ({ tests: await portalTests(db, actorOf(req), req.query.search) }));
  route(app, centrePortalApi.patients, async (req) => ({
    patients: await portalPatients(db, actorOf(req), req.query.search),
  }));
  route(app, centrePortalApi.registerPatient, async (req) => ({
    patient: await portalRegisterPatient(db, actorOf(req), req.body),
  }));
  route(app, centrePortalApi.bills, async (req) => ({ bills: await portalBills(db, actorOf(req)) }));
  route(app, centrePortalApi.order, async (req) => ({ bill: await portalOrder(db, actorOf(req), req.body) }));
  route(app, centrePortalApi.bill, async (req) => portalBill(db, actorOf(req), req.params.id));
  route(app, centrePortalApi.report, async (req, reply) => {
    const { pdf, billNumber } = await portalReportPdf(db, actorOf(req), req.params.id, `${req.protocol}://${req.host}`);
    reply.header('cache-control', 'private, no-store');
    return sendPdf(reply, `report-${billNumber}.pdf`, pdf, req.query.download === '1');
  });
  route(app, centrePortalApi.label, async (req, reply) => {
    const { pdf, sampleCode } = await portalLabelPdf(db, actorOf(req), req.params.id);
    return sendPdf(reply, `label-${sampleCode}.pdf`, pdf);
  });
  route(app, centrePortalApi.statement, async (req) => {
    const c = await portalCentre(db, actorOf(req));
    return { statement: await centreStatement(db, c.organization_id, c.id, req.query.from, req.query.to) };
  });
  route(app, centrePortalApi.statementPdf, async (req, reply) => {
    const c = await portalCentre(db, actorOf(req));
    const st = await centreStatement(db, c.organization_id, c.id, req.query.from, req.query.to);
    const pdf = await centreStatementPdf(await getOrganization(db, c.organization_id), st);
    return sendPdf(reply, `centre-statement-${st.from}-${st.to}.pdf`, pdf, req.query.download === '1');
  });
}
