import type { FastifyInstance } from 'fastify';
import { settingsApi } from '../../shared/api/settings.js';
import { getSettings, resetSettings, updateSettings } from '../../core/settings/service.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';
import { invalidateOrganizationCache } from '../org-cache.js';
import { dirname } from 'node:path';
import { dataPaths } from '../../core/datadir.js';
import { recentBackupRuns, takeBackup } from '../../core/backups/service.js';
import { assertServerOperator } from '../../core/tenants/open-labs.js';
import { labSettings } from '../../core/settings/organization.js';
import { ConflictError } from '../../core/errors.js';

export async function settingsRoutes(app: FastifyInstance) {
  const db = app.database.db;

  route(app, settingsApi.get, async (req) => ({ settings: await getSettings(db, actorOf(req).organizationId) }));
  route(app, settingsApi.lab, async (req) => {
    const s = await getSettings(db, actorOf(req).organizationId);
    return {
      lab: {
        name: s.labName,
        timezone: s.timezone,
        dateFormat: s.dateFormat,
        currency: s.currency,
        maintenanceMode: s.maintenanceMode,
        passwordPolicy: s.passwordPolicy,
      },
    };
  });
  route(app, settingsApi.update, async (req) => {
    const settings = await updateSettings(db, actorOf(req), req.body);
    invalidateOrganizationCache(app);
    return { settings };
  });
  /** Backups go to the data dir's backups folder: the server's own, or beside the SQLite file it was given. */
  const backupsDir = () => {
    const dir = app.options_.dataDir ?? (app.database.engine === 'sqlite' ? dirname(app.database.file) : null);
    return dir ? dataPaths(dir).backupsDir : null;
  };
  route(app, settingsApi.backups, async (req) => {
    await assertServerOperator(db, actorOf(req), "The server's backups");
    return { backups: await recentBackupRuns(db), directory: backupsDir() };
  });
  route(app, settingsApi.backupNow, async (req, reply) => {
    await assertServerOperator(db, actorOf(req), 'A backup of the server');
    const dir = backupsDir();
    if (!dir) throw new ConflictError('This server has no data directory to write a backup into');
    const s = await labSettings(db, actorOf(req).organizationId);
    const outcome = await takeBackup(app.database, dir, s, 'manual');
    reply.status(201);
    return { backup: outcome!.run };
  });
  route(app, settingsApi.reset, async (req) => {
    const settings = await resetSettings(db, actorOf(req));
    invalidateOrganizationCache(app);
    return { settings };
  });
}

export default settingsRoutes;
