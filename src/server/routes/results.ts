import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resultsApi } from '../../shared/api/results.js';
import { getResult, listResults, resultSheet, resultSummary } from '../../core/results/service.js';
import { createResult, deleteResult, updateResult } from '../../core/results/entry.js';
import {
  bulkVerifyResults,
  logCriticalCall,
  rejectResult,
  verifyResult,
  verifySample,
} from '../../core/results/verification.js';
import { releaseReport, reportStatus, sampleReport } from '../../core/results/report.js';
import { visitReport } from '../../core/results/visit-report.js';
import { saveResultSheet } from '../../core/results/sheet-save.js';
import { resultScope, type ResultScope } from '../../core/results/scope.js';
import { markVerifiable } from '../../core/results/verify-rules.js';
import type { TestResult } from '../../shared/schemas/results.js';
import { billReports } from '../../core/results/bill-reports.js';
import { exportResultsCsv } from '../../core/results/export.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendCsv, sendPdf } from '../files.js';

/** Result entry, verification (the validation queue) and the lab report (spec 001: Result Entry, Result Validation). */
export async function resultRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;
  // Every result answered carries whether the signed-in user may verify it, and why not.
  const mine = async (req: Parameters<typeof actorOf>[0], result: TestResult) => ({
    result: (await markVerifiable(db, actorOf(req), [result]))[0]!,
  });

  route(app, resultsApi.list, async (req) => {
    const page = await listResults(db, org(req), req.query, await resultScope(db, actorOf(req)));
    return { ...page, results: await markVerifiable(db, actorOf(req), page.results) };
  });
  route(app, resultsApi.summary, async (req) => ({ summary: await resultSummary(db, org(req)) }));
  route(app, resultsApi.export, async (req, reply) =>
    sendCsv(reply, 'test-results', await exportResultsCsv(db, actorOf(req), req.query)),
  );
  route(app, resultsApi.get, async (req) =>
    mine(req, await getResult(db, org(req), req.params.id, await resultScope(db, actorOf(req)))),
  );
  route(app, resultsApi.create, async (req) => mine(req, await createResult(db, actorOf(req), req.body)));
  route(app, resultsApi.saveSheet, async (req) => ({
    results: await markVerifiable(db, actorOf(req), await saveResultSheet(db, actorOf(req), req.params.id, req.body)),
  }));
  route(app, resultsApi.update, async (req) =>
    mine(req, await updateResult(db, actorOf(req), req.params.id, req.body)),
  );
  route(app, resultsApi.remove, async (req) => mine(req, await deleteResult(db, actorOf(req), req.params.id)));
  route(app, resultsApi.verify, async (req) => mine(req, await verifyResult(db, actorOf(req), req.params.id)));
  route(app, resultsApi.bulkVerify, async (req) => bulkVerifyResults(db, actorOf(req), req.body.ids));
  route(app, resultsApi.reject, async (req) =>
    mine(req, await rejectResult(db, actorOf(req), req.params.id, req.body)),
  );
  route(app, resultsApi.verifySample, async (req) => verifySample(db, actorOf(req), req.params.id, req.body.ids));
  route(app, resultsApi.criticalCall, async (req) =>
    mine(req, await logCriticalCall(db, actorOf(req), req.params.id, req.body)),
  );
  route(app, resultsApi.reportStatus, async (req) =>
    reportStatus(db, org(req), req.params.id, await resultScope(db, actorOf(req))),
  );
  route(app, resultsApi.releaseReport, async (req) => {
    await releaseReport(db, actorOf(req), req.params.id, req.body.reason);
    return { ok: true as const };
  });
  route(app, resultsApi.billReports, async (req) => ({
    reports: await billReports(db, org(req), req.params.id, await resultScope(db, actorOf(req))),
  }));
  route(app, resultsApi.sheet, async (req) => {
    const sheet = await resultSheet(db, org(req), req.params.id, await resultScope(db, actorOf(req)));
    await markVerifiable(
      db,
      actorOf(req),
      sheet.tests.flatMap((t) => (t.result ? [t.result] : [])),
    );
    return sheet;
  });
  /**
   * A report as the signed-in user may see it (their results scope), its QR codes pointing at this
   * server when the lab has set no public address; never kept by a cache.
   */
  const reportPdf = async (
    req: FastifyRequest,
    reply: FastifyReply,
    download: boolean,
    make: (scope: ResultScope, verifyBase: string) => Promise<{ pdf: Buffer; name: string }>,
  ) => {
    const { pdf, name } = await make(await resultScope(db, actorOf(req)), `${req.protocol}://${req.host}`);
    reply.header('cache-control', 'private, no-store');
    return sendPdf(reply, `report-${name}.pdf`, pdf, download);
  };
  route(app, resultsApi.report, async (req, reply) =>
    reportPdf(req, reply, req.query.download === '1', async (scope, base) => {
      const { pdf, sampleCode } = await sampleReport(db, org(req), req.params.id, scope, base);
      return { pdf, name: sampleCode };
    }),
  );
  route(app, resultsApi.visitReport, async (req, reply) =>
    reportPdf(req, reply, req.query.download === '1', async (scope, base) => {
      const { pdf, billNumber } = await visitReport(db, org(req), req.params.id, scope, base);
      return { pdf, name: billNumber };
    }),
  );
}

export default resultRoutes;
