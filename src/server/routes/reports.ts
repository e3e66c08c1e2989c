import type { FastifyInstance, FastifyReply } from 'fastify';
import { reportsApi } from '../../shared/api/reports.js';
import { createCustomReport, deleteCustomReport, reportCatalogue } from '../../core/reports/service.js';
import { monthlyAs, runReportAs } from '../../core/reports/run.js';
import { heavyFile } from '../../core/heavy/run.js';
import type { ReportFile } from '../../core/reports/files.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

const sendFile = (reply: FastifyReply, file: ReportFile) =>
  reply
    .type(file.type)
    .header('content-disposition', `attachment; filename="${file.name}"`)
    .header('cache-control', 'no-store')
    .send(file.body);

export default async function reportsRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, reportsApi.catalogue, async (req) => reportCatalogue(db, actorOf(req), req.query));
  // Files (PDF, XLSX, CSV of every row) are made on a thread of their own, in the lab's turn of heavy work.
  route(app, reportsApi.run, async (req, reply) => {
    if (req.query.format !== 'json')
      return sendFile(
        reply,
        await heavyFile(app.database, { kind: 'report', actor: actorOf(req), id: req.params.id, query: req.query }),
      );
    const out = await runReportAs(db, actorOf(req), req.params.id, req.query);
    return { report: out.report };
  });
  route(app, reportsApi.createCustom, async (req) => ({
    report: await createCustomReport(db, actorOf(req), req.body),
  }));
  route(app, reportsApi.removeCustom, async (req) => {
    await deleteCustomReport(db, actorOf(req), req.params.id);
    return { ok: true as const };
  });
  route(app, reportsApi.monthly, async (req, reply) => {
    if (req.query.format === 'pdf')
      return sendFile(
        reply,
        await heavyFile(app.database, { kind: 'monthly', actor: actorOf(req), month: req.query.month }),
      );
    const out = await monthlyAs(db, actorOf(req), req.query.month, req.query.format);
    return out.file ? sendFile(reply, out.file) : { monthly: out.monthly! };
  });
}
