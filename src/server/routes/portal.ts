import {
  portalBook,
  portalBookings,
  portalCancel,
  portalOffer,
  portalSlots,
} from '../../core/home-collection/portal.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { portalApi, portalPinApi } from '../../shared/api/portal.js';
import { UnauthorizedError } from '../../core/errors.js';
import { PortalAuth, type PortalSession } from '../../core/portal/auth.js';
import { LabClosedError } from '../../core/tenants/open-labs.js';
import { issuePortalPin, portalPinStatus } from '../../core/portal/pin.js';
import {
  portalAppointments,
  portalBillPdf,
  portalVisitReport,
  portalBills,
  portalMe,
  portalResults,
  requireReportableSample,
  portalLab,
} from '../../core/portal/data.js';
import { sampleReportPdf } from '../../core/results/report.js';
import { actorOf } from '../plugins/auth.js';
import { refuseCrossSite } from '../plugins/csrf.js';
import { route } from '../contract.js';
import { secureCookie } from '../plugins/cookies.js';
import { sendPdf } from '../files.js';

/** The patient's cookie: its own name, and sent only to the portal API, so it can never open a staff route. */
export const PORTAL_COOKIE = 'lims_portal';
const PORTAL_COOKIE_PATH = '/api/portal';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in patient on portal routes (set by the portal guard); always null elsewhere. */
    portal: PortalSession | null;
  }
}

/** Same rule as staff requests: state changes send JSON or no body, from our own origin. */
async function portalCsrf(req: FastifyRequest): Promise<void> {
  refuseCrossSite(req);
}

function patientOf(req: FastifyRequest): PortalSession {
  if (!req.portal) throw new UnauthorizedError('Please sign in to the patient portal');
  return req.portal;
}

/**
 * The patient portal (spec 2.14) and the staff side of it (portal PINs). Portal routes are declared
 * public so the staff hook leaves them alone; each is guarded here by the portal session instead, in
 * onRequest, so a caller without one learns nothing from validation (401 first, as for staff).
 */
export async function portalRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const auth = new PortalAuth(db);
  app.decorateRequest('portal', null);

  const cookieOptions = (req: FastifyRequest) => ({
    path: PORTAL_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookie(app, req),
  });

  async function portalGuard(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = req.cookies[PORTAL_COOKIE];
    if (!token) throw new UnauthorizedError('Please sign in to the patient portal');
    const session = await auth.resolve(token).catch((err: unknown) => {
      // A closed lab's session is gone: the cookie goes too, and the answer says why.
      if (err instanceof LabClosedError) reply.clearCookie(PORTAL_COOKIE, { path: PORTAL_COOKIE_PATH });
      throw err;
    });
    if (!session) {
      reply.clearCookie(PORTAL_COOKIE, { path: PORTAL_COOKIE_PATH });
      throw new UnauthorizedError('Your portal session has ended; please sign in again');
    }
    req.portal = session;
  }

  const guarded = { onRequest: [portalCsrf, portalGuard] };
  const meta = (req: FastifyRequest) => ({
    ip: req.ip,
    userAgent: req.headers['user-agent'] ?? null,
    host: req.hostname,
  });
  const privatePdf = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

  // Staff: issue or reset a patient's PIN (shown once), and whether one is issued.
  route(app, portalPinApi.issue, async (req, reply) => {
    const issued = await issuePortalPin(db, actorOf(req), req.params.id);
    reply.header('cache-control', 'no-store');
    return issued;
  });
  route(app, portalPinApi.status, async (req) => portalPinStatus(db, actorOf(req).organizationId, req.params.id));

  // Patients.
  route(
    app,
    portalApi.login,
    async (req, reply) => {
      const result = await auth.login(req.body, meta(req));
      reply.setCookie(PORTAL_COOKIE, result.token, { ...cookieOptions(req), expires: result.expiresAt });
      return { patient: await portalMe(db, result.session) };
    },
    { onRequest: portalCsrf },
  );

  route(
    app,
    portalApi.logout,
    async (req, reply) => {
      const token = req.cookies[PORTAL_COOKIE];
      const session = token ? await auth.resolve(token).catch(() => null) : null;
      if (session) await auth.logout(session, meta(req));
      reply.clearCookie(PORTAL_COOKIE, { path: PORTAL_COOKIE_PATH });
      return { ok: true as const };
    },
    { onRequest: portalCsrf },
  );

  route(app, portalApi.lab, async () => portalLab(db));
  route(app, portalApi.me, async (req) => ({ patient: await portalMe(db, patientOf(req)) }), guarded);
  route(
    app,
    portalApi.appointments,
    async (req) => ({ appointments: await portalAppointments(db, patientOf(req)) }),
    guarded,
  );
  route(app, portalApi.results, async (req) => ({ results: await portalResults(db, patientOf(req)) }), guarded);
  route(app, portalApi.bills, async (req) => ({ bills: await portalBills(db, patientOf(req)) }), guarded);
  route(app, portalApi.homeOffer, async (req) => portalOffer(db, patientOf(req)), guarded);
  route(
    app,
    portalApi.homeSlots,
    async (req) => ({ slots: await portalSlots(db, patientOf(req), req.query.date) }),
    guarded,
  );
  route(app, portalApi.homeBookings, async (req) => ({ bookings: await portalBookings(db, patientOf(req)) }), guarded);
  route(app, portalApi.homeBook, async (req) => ({ booking: await portalBook(db, patientOf(req), req.body) }), guarded);
  route(
    app,
    portalApi.homeCancel,
    async (req) => ({ booking: await portalCancel(db, patientOf(req), req.params.id, req.body.reason) }),
    guarded,
  );

  route(
    app,
    portalApi.billPdf,
    async (req, reply) => {
      const { pdf, billNumber } = await portalBillPdf(db, patientOf(req), req.params.id);
      return sendPdf(privatePdf(reply), `${billNumber}.pdf`, pdf, req.query.download === '1');
    },
    guarded,
  );

  route(
    app,
    portalApi.visitReportPdf,
    async (req, reply) => {
      const { pdf, billNumber } = await portalVisitReport(
        db,
        patientOf(req),
        req.params.id,
        `${req.protocol}://${req.host}`,
      );
      return sendPdf(privatePdf(reply), `report-${billNumber}.pdf`, pdf, req.query.download === '1');
    },
    guarded,
  );

  route(
    app,
    portalApi.reportPdf,
    async (req, reply) => {
      const s = patientOf(req);
      const { sampleCode } = await requireReportableSample(db, s, req.params.id);
      const pdf = await sampleReportPdf(db, s.organizationId, req.params.id, `${req.protocol}://${req.host}`);
      return sendPdf(privatePdf(reply), `report-${sampleCode}.pdf`, pdf, req.query.download === '1');
    },
    guarded,
  );
}

export default portalRoutes;
