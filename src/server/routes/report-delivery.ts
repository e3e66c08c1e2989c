import type { FastifyInstance, FastifyRequest } from 'fastify';
import { reportDeliveryApi, reportLinkApi, reportWebhookApi } from '../../shared/api/report-delivery.js';
import { ReportLinkGate } from '../../core/report-delivery/links.js';
import { getDeliverySettings, updateDeliverySettings } from '../../core/report-delivery/settings.js';
import { channelCosts, copyLink, deskDay, linkOpens, resend, revokeLink } from '../../core/report-delivery/desk.js';
import { whatsappChallenge, whatsappWebhook } from '../../core/report-delivery/webhooks.js';
import { smsDeliveryReport } from '../../core/report-delivery/sms-reports.js';
import { getConsent, saveConsent } from '../../core/report-delivery/consent.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { sendPdf } from '../files.js';

/**
 * Report delivery: the public link page (token in the body, wrong answers limited by one gate per
 * server) and the staff routes (settings, the sample's link at the front desk).
 */
export default async function reportDeliveryRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const outbound = { allowPrivate: app.options_.allowPrivateOutbound ?? false };
  const gate = new ReportLinkGate(db, outbound);
  const caller = (req: FastifyRequest) => ({ ip: req.ip });
  const base = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

  route(app, reportLinkApi.open, async (req) => ({ link: await gate.open(req.body.token, caller(req)) }));
  route(app, reportLinkApi.sendCode, async (req) => gate.sendOtp(req.body.token, caller(req)));
  route(app, reportLinkApi.prove, async (req) => ({
    report: await gate.prove(req.body.token, req.body.answer, caller(req)),
  }));
  route(app, reportLinkApi.pdf, async (req, reply) => {
    const { pdf, sampleCode } = await gate.pdf(req.body.token, req.body.answer, caller(req), base(req));
    // A patient's report: never kept by a shared cache or the browser's back-forward cache.
    reply.header('cache-control', 'no-store');
    return sendPdf(reply, `report-${sampleCode}.pdf`, pdf, true);
  });

  route(app, reportDeliveryApi.settings, async (req) => ({
    settings: await getDeliverySettings(db, actorOf(req).organizationId),
  }));
  route(app, reportDeliveryApi.saveSettings, async (req) => ({
    settings: await updateDeliverySettings(db, actorOf(req), req.body, outbound),
  }));
  route(app, reportDeliveryApi.consent, async (req) => ({
    consent: await getConsent(db, actorOf(req).organizationId, req.params.id),
  }));
  route(app, reportDeliveryApi.saveConsent, async (req) => ({
    consent: await saveConsent(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, reportDeliveryApi.copyLink, async (req) => copyLink(db, actorOf(req), req.params.id, base(req)));
  route(app, reportDeliveryApi.revokeLink, async (req) => {
    await revokeLink(db, actorOf(req), req.params.id);
    return { ok: true as const };
  });
  route(app, reportDeliveryApi.opens, async (req) => ({
    opens: await linkOpens(db, actorOf(req).organizationId, req.params.id),
  }));
  route(app, reportDeliveryApi.desk, async (req) => deskDay(db, actorOf(req).organizationId, req.query));
  route(app, reportDeliveryApi.resend, async (req) => resend(db, actorOf(req), req.params.id, req.body.channel));
  route(app, reportDeliveryApi.costs, async (req) => ({
    costs: await channelCosts(db, actorOf(req).organizationId, req.query.months),
  }));

  route(app, reportWebhookApi.challenge, async (req, reply) => {
    const q = req.query;
    const challenge = await whatsappChallenge(db, req.params.id, {
      mode: q['hub.mode'],
      token: q['hub.verify_token'],
      challenge: q['hub.challenge'],
    });
    return reply.type('text/plain; charset=utf-8').send(challenge);
  });
  // Gateways post their reports as a form as often as JSON: this route reads both.
  await app.register(async (hooks) => {
    hooks.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    route(hooks, reportWebhookApi.sms, async (req) => {
      const header = req.headers['x-lims-key'];
      return smsDeliveryReport(db, req.params.id, req.query.key ?? (typeof header === 'string' ? header : undefined), {
        ref: req.body.ref ?? req.query.ref,
        status: req.body.status ?? req.query.status,
      });
    });
  });
  // The signature is over the bytes Meta sent: this route keeps them (its own JSON parser, here only).
  await app.register(async (hooks) => {
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    route(hooks, reportWebhookApi.whatsapp, async (req) =>
      whatsappWebhook(db, req.params.id, req.body as Buffer, req.headers['x-hub-signature-256'] as string | undefined),
    );
  });
}
