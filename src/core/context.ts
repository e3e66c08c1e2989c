import type { Role } from '../shared/roles.js';

/** Who is acting, passed from the server (or the CLI) into every service call. */
export interface Actor {
  userId: number | null;
  email: string | null;
  role: Role | 'system';
  organizationId: number;
  ip?: string | null;
  userAgent?: string | null;
}

/** The CLI acts as the system, but always names the organisation it acts on. */
export function systemActor(organizationId: number, label = 'cli'): Actor {
  return { userId: null, email: label, role: 'system', organizationId };
}

export function nowIso(): string {
  return new Date().toISOString();
}
