import type { FastifyInstance } from 'fastify';
import { messagingApi } from '../../shared/api/messaging.js';
import {
  deliveries,
  getEmailSettings,
  getSmsSettings,
  testEmail,
  testSms,
  updateEmailSettings,
  updateSmsSettings,
} from '../../core/messaging/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

/** Lab email and SMS on /settings: the mail server, the SMS gateway, Send Test and the outbox's figures. */
export async function messagingRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;
  const outbound = { allowPrivate: app.options_.allowPrivateOutbound ?? false };

  route(app, messagingApi.email, async (req) => ({ email: await getEmailSettings(db, org(req)) }));
  route(app, messagingApi.updateEmail, async (req) => ({
    email: await updateEmailSettings(db, actorOf(req), req.body, outbound),
  }));
  route(app, messagingApi.testEmail, async (req) => ({ test: await testEmail(db, org(req), req.body.to, outbound) }));
  route(app, messagingApi.sms, async (req) => ({ sms: await getSmsSettings(db, org(req)) }));
  route(app, messagingApi.updateSms, async (req) => ({
    sms: await updateSmsSettings(db, actorOf(req), req.body, outbound),
  }));
  route(app, messagingApi.testSms, async (req) => ({ test: await testSms(db, org(req), req.body.to, outbound) }));
  route(app, messagingApi.deliveries, async (req) => deliveries(db, org(req)));
}

export default messagingRoutes;
