import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParam } from '../../shared/schemas/common.js';
import {
  bulkVerifySchema,
  resultCreateSchema,
  resultListQuery,
  resultRejectSchema,
  resultUpdateSchema,
} from '../../shared/schemas/results.js';
import {
  createResult,
  deleteResult,
  getResult,
  listResults,
  resultSheet,
  resultSummary,
  updateResult,
} from '../../core/results/service.js';
import { bulkVerifyResults, rejectResult, verifyResult } from '../../core/results/verification.js';
import { sampleReport } from '../../core/results/report.js';
import { resultsCsv } from '../../core/results/export.js';
import { writeAudit } from '../../core/audit/audit.js';
import { actorOf } from '../plugins/auth.js';

const downloadQuery = z.object({ download: z.enum(['0', '1']).optional() });

/** Result entry, verification (the validation queue) and the lab report (spec 001: Result Entry, Result Validation). */
export async function resultRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const view = { access: 'view_results' } as const;
  const enter = { access: 'update_results' } as const;
  const verify = { access: 'verify_results' } as const;

  r.get('/api/test-results', { schema: { querystring: resultListQuery }, config: view }, async (req) =>
    listResults(db, actorOf(req).organizationId, req.query),
  );
  r.get('/api/test-results/summary', { config: view }, async (req) => ({
    summary: await resultSummary(db, actorOf(req).organizationId),
  }));

  /** Export Report: every result matching the filters as CSV, recorded in the audit trail. */
  r.get('/api/test-results/export', { schema: { querystring: resultListQuery }, config: view }, async (req, reply) => {
    const actor = actorOf(req);
    const { search, status, validation, priority, critical, sample_id, entered } = req.query;
    const filters = { search, status, validation, priority, critical, sample_id, entered };
    const csv = await resultsCsv(db, actor.organizationId, filters);
    await writeAudit(db, actor, { action: 'export', entity: 'test_result', newValues: { format: 'csv', ...filters } });
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="test-results-${day}.csv"`)
      .send(csv);
  });

  r.get('/api/test-results/:id', { schema: { params: idParam }, config: view }, async (req) => ({
    result: await getResult(db, actorOf(req).organizationId, req.params.id),
  }));

  r.post('/api/test-results', { schema: { body: resultCreateSchema }, config: enter }, async (req, reply) => {
    reply.status(201);
    return { result: await createResult(db, actorOf(req), req.body) };
  });
  r.put(
    '/api/test-results/:id',
    { schema: { params: idParam, body: resultUpdateSchema }, config: enter },
    async (req) => ({
      result: await updateResult(db, actorOf(req), req.params.id, req.body),
    }),
  );
  r.delete('/api/test-results/:id', { schema: { params: idParam }, config: enter }, async (req) => ({
    result: await deleteResult(db, actorOf(req), req.params.id),
  }));

  // The spec's client sends {verified_by}: the body is ignored, the verifier is the signed-in user.
  r.put('/api/test-results/:id/verify', { schema: { params: idParam }, config: verify }, async (req) => ({
    result: await verifyResult(db, actorOf(req), req.params.id),
  }));
  r.post('/api/test-results/bulk-verify', { schema: { body: bulkVerifySchema }, config: verify }, async (req) =>
    bulkVerifyResults(db, actorOf(req), req.body.ids),
  );
  r.put(
    '/api/test-results/:id/reject',
    { schema: { params: idParam, body: resultRejectSchema }, config: verify },
    async (req) => ({
      result: await rejectResult(db, actorOf(req), req.params.id, req.body),
    }),
  );

  /** The result-entry sheet of a sample: each ordered test with the range for this patient and its result. */
  r.get('/api/samples/:id/results', { schema: { params: idParam }, config: view }, async (req) =>
    resultSheet(db, actorOf(req).organizationId, req.params.id),
  );

  r.get(
    '/api/samples/:id/report.pdf',
    { schema: { params: idParam, querystring: downloadQuery }, config: view },
    async (req, reply) => {
      const actor = actorOf(req);
      const { pdf, sampleCode } = await sampleReport(db, actor.organizationId, req.params.id);
      const disposition = req.query.download === '1' ? 'attachment' : 'inline';
      return reply
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `${disposition}; filename="report-${sampleCode}.pdf"`)
        .send(pdf);
    },
  );
}
