import { z } from 'zod';
import { backupRunSchema, labInfoSchema, settingsSchema, settingsUpdateSchema } from '../schemas/settings.js';
import { defineRoute } from './contract.js';

const oneSettings = z.object({ settings: settingsSchema });

/** System Settings (/settings): read, save and reset the lab's settings; admins with system_settings. */
export const settingsApi = {
  get: defineRoute({ method: 'GET', path: '/api/settings', access: 'system_settings', response: oneSettings }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/settings',
    access: 'system_settings',
    body: settingsUpdateSchema,
    response: oneSettings,
  }),
  /** Every signed-in screen: the lab's name, date format, time zone, currency and maintenance state. */
  lab: defineRoute({
    method: 'GET',
    path: '/api/lab',
    access: 'authenticated',
    response: z.object({ lab: labInfoSchema }),
  }),
  /**
   * The Database section: the last backups taken by the schedule or by hand. A backup holds every
   * lab on the server: the server operator's alone (manage_tenants, in the server's first lab).
   */
  backups: defineRoute({
    method: 'GET',
    path: '/api/settings/backups',
    access: 'manage_tenants',
    response: z.object({ backups: z.array(backupRunSchema), directory: z.string().nullable() }),
  }),
  /** Back Up Now: a backup into this server's data dir, recorded like a scheduled one. */
  backupNow: defineRoute({
    method: 'POST',
    path: '/api/settings/backups',
    access: 'manage_tenants',
    response: z.object({ backup: backupRunSchema }),
    status: 201,
  }),
  reset: defineRoute({ method: 'POST', path: '/api/settings/reset', access: 'system_settings', response: oneSettings }),
};
