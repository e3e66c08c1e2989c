import type { FastifyInstance } from 'fastify';
import { labReportsApi } from '../../shared/api/lab-reports.js';
import {
  getReportSettings,
  labReportSummary,
  listLabReports,
  listTemplates,
  removeSignature,
  saveReportSettings,
  saveTemplate,
  uploadSignature,
} from '../../core/lab-reports/service.js';
import { verifyReport } from '../../core/lab-reports/verification.js';
import { labReportAnalytics } from '../../core/lab-reports/analytics.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function labReportRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, labReportsApi.list, async (req) => listLabReports(db, org(req), req.query));
  route(app, labReportsApi.summary, async (req) => ({ summary: await labReportSummary(db, org(req)) }));
  route(app, labReportsApi.analytics, async (req) => ({
    analytics: await labReportAnalytics(db, org(req), req.query.days),
  }));
  route(app, labReportsApi.templates, async (req) => ({ templates: await listTemplates(db, org(req)) }));
  route(app, labReportsApi.saveTemplate, async (req) => ({
    template: await saveTemplate(db, actorOf(req), req.params.department, req.body),
  }));
  route(app, labReportsApi.uploadSignature, async (req) => ({
    template: await uploadSignature(db, actorOf(req), req.params.department, req.body),
  }));
  route(app, labReportsApi.removeSignature, async (req) => ({
    template: await removeSignature(db, actorOf(req), req.params.department),
  }));
  route(app, labReportsApi.settings, async (req) => ({ settings: await getReportSettings(db, org(req)) }));
  route(app, labReportsApi.saveSettings, async (req) => ({
    settings: await saveReportSettings(db, actorOf(req), req.body),
  }));
  route(app, labReportsApi.verify, async (req) => ({ verification: await verifyReport(db, req.query.token) }));
}
