import type { FastifyInstance, FastifyReply } from 'fastify';
import { accountsApi } from '../../shared/api/accounts.js';
import type { AccountExportKind, Gstr1CsvSection } from '../../shared/schemas/accounts.js';
import { heavyFile } from '../../core/heavy/run.js';
import { accountsSummary, getAccountsSettings, updateAccountsSettings } from '../../core/accounts/service.js';
import type { Actor } from '../../core/context.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function accountsRoutes(app: FastifyInstance) {
  const db = app.database.db;
  route(app, accountsApi.summary, async (req) => ({
    summary: await accountsSummary(db, actorOf(req).organizationId, req.query.month),
  }));
  route(app, accountsApi.settings, async (req) => ({
    settings: await getAccountsSettings(db, actorOf(req).organizationId),
  }));
  route(app, accountsApi.updateSettings, async (req) => ({
    settings: await updateAccountsSettings(db, actorOf(req), req.body),
  }));
  // A month of a busy lab is thousands of bills: its files are made on a thread, in the lab's turn of heavy work.
  const send = async (
    reply: FastifyReply,
    actor: Actor,
    file: AccountExportKind,
    month: string,
    section?: Gstr1CsvSection,
  ) => {
    const f = await heavyFile(app.database, { kind: 'accounts', actor, file, month, section });
    return reply
      .type(f.type)
      .header('content-disposition', `attachment; filename="${f.name}"`)
      .header('cache-control', 'no-store')
      .send(f.body);
  };
  route(app, accountsApi.tally, (req, reply) => send(reply, actorOf(req), 'tally', req.query.month));
  route(app, accountsApi.gstr1, (req, reply) => send(reply, actorOf(req), 'gstr1', req.query.month));
  route(app, accountsApi.gstr1Csv, (req, reply) =>
    send(reply, actorOf(req), 'gstr1-csv', req.query.month, req.query.section),
  );
  route(app, accountsApi.einvoice, (req, reply) => send(reply, actorOf(req), 'einvoice', req.query.month));
}
