import type { AuditLog } from '@shared/schemas/audit';

/** Who did it: the user's name, else their email; rows written by `lims setup` or the CLI have no user. */
export function actorName(log: Pick<AuditLog, 'user_id' | 'user_name' | 'user_email'>): string {
  if (log.user_name) return log.user_name;
  if (log.user_id === null) return log.user_email ? `System (${log.user_email})` : 'System';
  return log.user_email ?? `User #${log.user_id}`;
}
