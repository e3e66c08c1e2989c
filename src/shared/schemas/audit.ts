import { z } from 'zod';
import { AUDIT_ACTIONS } from '../constants.js';
import { pageQuery } from './common.js';

export const auditListQuery = pageQuery.extend({
  limit: pageQuery.shape.limit.default(50),
  user_id: z.coerce.number().int().positive('user_id must be a positive number').optional(),
  action: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(', ')}` }).optional(),
  ),
  entity: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.string().max(40).optional()),
  from: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'from must be YYYY-MM-DD')
      .optional(),
  ),
  to: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'to must be YYYY-MM-DD')
      .optional(),
  ),
  search: z.string().trim().max(100).optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

export interface AuditLog {
  id: number;
  created_at: string;
  user_id: number | null;
  user_email: string | null;
  user_name: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  ip_address: string | null;
  user_agent: string | null;
  status: 'success' | 'failed';
}
