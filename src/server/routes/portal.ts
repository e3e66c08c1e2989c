import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '../../shared/schemas/common.js';
import { portalLoginSchema } from '../../shared/schemas/portal.js';
import { ForbiddenError, UnauthorizedError } from '../../core/errors.js';
import { PortalAuth, type PortalSession } from '../../core/portal/auth.js';
import { issuePortalPin, portalPinStatus } from '../../core/portal/pin.js';
import {
  portalAppointments,
  portalBillPdf,
  portalBills,
  portalMe,
  portalResults,
  requireReportableSample,
} from '../../core/portal/data.js';
import { sampleReportPdf } from '../../core/results/report.js';
import { actorOf, sameOrigin } from '../plugins/auth.js';

/** The patient's cookie: its own name, and sent only to the portal API, so it can never open a staff route. */
export const PORTAL_COOKIE = 'lims_portal';
const PORTAL_COOKIE_PATH = '/api/portal';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in patient on portal routes (set by the portal guard); always null elsewhere. */
    portal: PortalSession | null;
  }
}

/** Same rule as staff requests (plugins/auth.ts): state changes send JSON or no body, from our own origin. */
async function portalCsrf(req: FastifyRequest): Promise<void> {
  if (!UNSAFE.has(req.method)) return;
  const type = req.headers['content-type'];
  const length = Number(req.headers['content-length'] ?? 0);
  const hasBody = length > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !(type ?? '').toLowerCase().startsWith('application/json')) {
    throw new ForbiddenError('Cross-site request refused: requests that change data must send JSON');
  }
  if (!sameOrigin(req)) throw new ForbiddenError('Cross-site request refused: origin does not match this server');
}

function patientOf(req: FastifyRequest): PortalSession {
  if (!req.portal) throw new UnauthorizedError('Please sign in to the patient portal');
  return req.portal;
}

function pdfDisposition(req: FastifyRequest): 'attachment' | 'inline' {
  return (req.query as { download?: string } | undefined)?.download === '1' ? 'attachment' : 'inline';
}

/**
 * The patient portal (spec 2.14) and the staff side of it (portal PINs). Portal routes are declared
 * public so the staff hook leaves them alone; each is guarded here by the portal session instead, in
 * onRequest, so a caller without one learns nothing from validation (401 first, as for staff).
 */
export async function portalRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = app.database.db;
  const auth = new PortalAuth(db);
  app.decorateRequest('portal', null);

  const cookieOptions = () => ({
    path: PORTAL_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: app.options_.secureCookies ?? false,
  });

  async function portalGuard(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = req.cookies[PORTAL_COOKIE];
    if (!token) throw new UnauthorizedError('Please sign in to the patient portal');
    const session = await auth.resolve(token);
    if (!session) {
      reply.clearCookie(PORTAL_COOKIE, { path: PORTAL_COOKIE_PATH });
      throw new UnauthorizedError('Your portal session has ended; please sign in again');
    }
    req.portal = session;
  }

  const guarded = { config: { access: 'public' as const }, onRequest: [portalCsrf, portalGuard] };
  const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

  // Staff: issue or reset a patient's PIN (shown once), and whether one is issued.
  r.post(
    '/api/patients/:id/portal-pin',
    { schema: { params: idParam }, config: { access: 'manage_patients' } },
    async (req, reply) => {
      const issued = await issuePortalPin(db, actorOf(req), req.params.id);
      reply.status(201).header('cache-control', 'no-store');
      return issued;
    },
  );
  r.get(
    '/api/patients/:id/portal-pin',
    { schema: { params: idParam }, config: { access: 'manage_patients' } },
    async (req) => portalPinStatus(db, actorOf(req).organizationId, req.params.id),
  );

  // Patients.
  r.post(
    '/api/portal/login',
    { schema: { body: portalLoginSchema }, config: { access: 'public' }, onRequest: portalCsrf },
    async (req, reply) => {
      const result = await auth.login(req.body, meta(req));
      reply.setCookie(PORTAL_COOKIE, result.token, { ...cookieOptions(), expires: result.expiresAt });
      return { patient: await portalMe(db, result.session) };
    },
  );

  /** Works with an ended session too, so the browser is always left signed out. */
  r.post('/api/portal/logout', { config: { access: 'public' }, onRequest: portalCsrf }, async (req, reply) => {
    const token = req.cookies[PORTAL_COOKIE];
    const session = token ? await auth.resolve(token) : null;
    if (session) await auth.logout(session, meta(req));
    reply.clearCookie(PORTAL_COOKIE, { path: PORTAL_COOKIE_PATH });
    return { ok: true };
  });

  r.get('/api/portal/me', guarded, async (req) => ({ patient: await portalMe(db, patientOf(req)) }));
  r.get('/api/portal/appointments', guarded, async (req) => ({
    appointments: await portalAppointments(db, patientOf(req)),
  }));
  r.get('/api/portal/results', guarded, async (req) => ({ results: await portalResults(db, patientOf(req)) }));
  r.get('/api/portal/bills', guarded, async (req) => ({ bills: await portalBills(db, patientOf(req)) }));

  r.get('/api/portal/bills/:id/pdf', { ...guarded, schema: { params: idParam } }, async (req, reply) => {
    const { pdf, billNumber } = await portalBillPdf(db, patientOf(req), req.params.id);
    return reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `${pdfDisposition(req)}; filename="${billNumber}.pdf"`)
      .send(pdf);
  });

  r.get('/api/portal/samples/:id/report.pdf', { ...guarded, schema: { params: idParam } }, async (req, reply) => {
    const s = patientOf(req);
    const { sampleCode } = await requireReportableSample(db, s, req.params.id);
    const pdf = await sampleReportPdf(db, s.organizationId, req.params.id);
    return reply
      .type('application/pdf')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `${pdfDisposition(req)}; filename="report-${sampleCode}.pdf"`)
      .send(pdf);
  });
}
