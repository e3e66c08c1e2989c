import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dataJobsApi, dataMappingsApi } from '../../shared/api/data-jobs.js';
import { entityNamed } from '../../core/transfer/service.js';
import {
  cancelJob,
  checkUpload,
  discardUpload,
  entityInfos,
  exportDownload,
  jobById,
  jobErrorReport,
  jobErrors,
  jobSummary,
  listJobs,
  listMappings,
  removeMapping,
  saveMapping,
  startExport,
  startImport,
  stopJobs,
  uploadAndCheck,
  type Requester,
} from '../../core/data-jobs/service.js';
import { DEFAULT_UPLOAD_LIMITS } from '../../core/data-jobs/uploads.js';
import { TEMPLATE_TYPES, templateFile } from '../../core/data-jobs/templates.js';
import { DomainError, ValidationError } from '../../core/errors.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
} as const;

/** The data screens: jobs, uploads, templates, downloads, saved mappings. */
export default async function dataJobRoutes(app: FastifyInstance) {
  const database = app.database;
  const db = database.db;
  // Uploads, export files and error reports live in the data dir (a test app without one: a temp dir).
  const dataDir =
    app.options_.dataDir ??
    (database.engine === 'sqlite' ? dirname(database.file) : mkdtempSync(join(tmpdir(), 'lims-data-')));
  const uploadLimits = app.options_.uploadLimits ?? DEFAULT_UPLOAD_LIMITS;
  const who = (req: FastifyRequest): Requester => ({ actor: actorOf(req), permissions: req.staff!.permissions });

  // The upload's body is the file itself, streamed to disk by the handler (this plugin only).
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));

  // Expired export files and abandoned uploads: the server's `data-files-sweep` job (src/server/jobs.ts).
  app.addHook('onClose', async () => {
    await stopJobs(true);
  });

  route(app, dataJobsApi.list, async (req) => listJobs(db, who(req), req.query));
  route(app, dataJobsApi.summary, async (req) => ({ summary: await jobSummary(db, who(req), req.query) }));
  route(app, dataJobsApi.entities, async (req) => ({ entities: entityInfos(who(req)) }));
  route(app, dataJobsApi.template, async (req, reply) => {
    const entity = entityNamed(req.params.entity)!;
    const file = await templateFile(entity, req.query.format);
    return reply
      .type(TEMPLATE_TYPES[req.query.format])
      .header('content-disposition', `attachment; filename="${entity.name}-template.${req.query.format}"`)
      .send(file);
  });
  route(app, dataJobsApi.upload, async (req, reply) => {
    const body = req.body as unknown as Readable | undefined;
    if (!body || typeof (body as Readable).pipe !== 'function')
      throw ValidationError.field('file', 'Send the file as the body (application/octet-stream)');
    const length = Number(req.headers['content-length']);
    try {
      return await uploadAndCheck(
        database,
        dataDir,
        who(req),
        req.query,
        body,
        uploadLimits,
        length >= 0 ? length : undefined,
      );
    } catch (err) {
      // A refused file is left unread: the answer goes out, then the connection closes on the rest.
      if (err instanceof DomainError && err.statusCode === 413) reply.header('connection', 'close');
      throw err;
    }
  });
  route(app, dataJobsApi.discardUpload, async (req) => discardUpload(dataDir, who(req), req.params.id));
  route(app, dataJobsApi.check, async (req) => ({ check: await checkUpload(database, dataDir, who(req), req.body) }));
  route(app, dataJobsApi.startImport, async (req) => ({
    job: await startImport(database, dataDir, who(req), req.body),
  }));
  route(app, dataJobsApi.startExport, async (req) => ({
    job: await startExport(database, dataDir, who(req), req.body),
  }));
  route(app, dataJobsApi.get, async (req) => ({ job: await jobById(db, who(req), req.params.id) }));
  route(app, dataJobsApi.cancel, async (req) => ({ job: await cancelJob(db, who(req), req.params.id) }));
  route(app, dataJobsApi.download, async (req, reply) => {
    const file = await exportDownload(db, who(req), req.params.id);
    return reply
      .type(CONTENT_TYPES[file.format])
      .header('content-disposition', `attachment; filename="${file.fileName.replace(/["\\\r\n]/g, '')}"`)
      .send(file.stream);
  });
  route(app, dataJobsApi.errors, async (req) => jobErrors(db, who(req), req.params.id));
  route(app, dataJobsApi.errorReport, async (req, reply) => {
    const report = await jobErrorReport(db, who(req), req.params.id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${report.name}.csv"`)
      .send(report.stream);
  });

  route(app, dataMappingsApi.list, async (req) => ({ mappings: await listMappings(db, who(req), req.query.entity) }));
  route(app, dataMappingsApi.save, async (req) => ({ mapping: await saveMapping(db, who(req), req.body) }));
  route(app, dataMappingsApi.remove, async (req) => ({ mapping: await removeMapping(db, who(req), req.params.id) }));
}
