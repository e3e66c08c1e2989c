import { z } from 'zod';
import { labInfoSchema, settingsSchema, settingsUpdateSchema } from '../schemas/settings.js';
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
  reset: defineRoute({ method: 'POST', path: '/api/settings/reset', access: 'system_settings', response: oneSettings }),
};
