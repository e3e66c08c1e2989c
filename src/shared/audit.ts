import type { AuditAction } from './constants.js';

/**
 * What the audit trail records, in words, for the server, the CLI and the browser alike: the
 * entities lims writes (key -> name) and the past-tense verb of each action. An entity a newer
 * feature writes and this list does not know yet is named from its key ("inventory_item" ->
 * "Inventory item"), so adding a feature needs no edit here.
 */
export const AUDIT_ENTITIES = {
  patient: 'Patient',
  user: 'User',
  session: 'Session',
  organization: 'Lab',
  test: 'Test',
  test_profile: 'Test profile',
  test_package: 'Test package',
  bill: 'Bill',
  payment: 'Payment',
  sample: 'Sample',
  test_result: 'Test result',
  visit: 'Visit',
  qc_material: 'QC material',
  qc_run: 'QC run',
  portal_access: 'Portal access',
  portal_session: 'Portal session',
  collection_location: 'Collection location',
  starter_catalogue: 'Starter catalogue',
  two_factor: 'Two-factor sign-in',
  tenant: 'Tenant',
  invitation: 'Invitation',
} as const satisfies Record<string, string>;

export type AuditEntityKey = keyof typeof AUDIT_ENTITIES;
export const KNOWN_AUDIT_ENTITIES = Object.keys(AUDIT_ENTITIES) as AuditEntityKey[];

export function auditEntityName(key: string): string {
  const known = (AUDIT_ENTITIES as Record<string, string>)[key];
  if (known) return known;
  const s = key.replace(/[_-]+/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const VERBS: Record<AuditAction, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
  login: 'signed in',
  logout: 'signed out',
  export: 'exported',
  import: 'imported',
};

export function actionVerb(action: string): string {
  return VERBS[action as AuditAction] ?? action;
}
