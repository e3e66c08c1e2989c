import { z } from 'zod';
import { AUDIT_ACTIONS } from '../constants.js';
import { isoDate, pageQuery, pagedShape, strictNumber } from './common.js';

export const auditListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(50),
  user_id: strictNumber(z.number().int().positive('user_id must be a positive number').optional()),
  action: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(', ')}` }).optional(),
  ),
  entity: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.string().max(40).optional()),
  from: z.preprocess((v) => (v === '' ? undefined : v), isoDate('from').optional()),
  to: z.preprocess((v) => (v === '' ? undefined : v), isoDate('to').optional()),
  search: z.string().trim().max(100).optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

export const auditLogSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  user_id: z.number().int().nullable(),
  user_email: z.string().nullable(),
  user_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  /** What the row is about in words (test and patient, sample code...), null when it no longer exists. */
  subject: z.string().nullable().optional(),
  // What changed: the entity's own fields, free-form by nature.
  old_values: z.record(z.string(), z.unknown()).nullable(),
  new_values: z.record(z.string(), z.unknown()).nullable(),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  status: z.enum(['success', 'failed']),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

export const auditPageSchema = z.object({ logs: z.array(auditLogSchema), ...pagedShape });
export type AuditPage = z.infer<typeof auditPageSchema>;
