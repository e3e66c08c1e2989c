import type { Generated } from 'kysely';

/** Kysely types of Multi-Tenant Setup: the tenant columns of organizations (migration 13). */
declare module '../db/schema.js' {
  interface OrganizationsTable {
    /** The host name the lab's staff reach the server by (matched against the Host header at sign-in). */
    domain: string | null;
    /** basic, standard, professional, enterprise; null when none was recorded. */
    plan: string | null;
    /** active, suspended, pending (its admin has not set a password yet), inactive. */
    status: Generated<string>;
  }
}

export {};
