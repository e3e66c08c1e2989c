import { z } from 'zod';
import { billingSettingsSchema, billingSettingsUpdateSchema } from '../schemas/billing-settings.js';
import { defineRoute } from './contract.js';

const body = z.object({ settings: billingSettingsSchema });

/** Billing settings: GSTIN and state, bill due days, discount limits per role. Changing them is a system setting. */
export const billingSettingsApi = {
  get: defineRoute({ method: 'GET', path: '/api/billing-settings', access: 'view_bills', response: body }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/billing-settings',
    access: 'system_settings',
    body: billingSettingsUpdateSchema,
    response: body,
  }),
};
