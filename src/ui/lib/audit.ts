import type { AuditAction } from '@shared/constants';
import type { BadgeTone } from '@/components';

/** One colour per meaning (docs/ui.md): additions green, changes blue, removals red, sessions grey. */
const TONES: Record<AuditAction, BadgeTone> = {
  create: 'green',
  update: 'blue',
  delete: 'red',
  login: 'grey',
  logout: 'grey',
  export: 'amber',
  import: 'amber',
};

export function actionTone(action: string): BadgeTone {
  return TONES[action as AuditAction] ?? 'grey';
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

/** Entities written to the audit trail so far; the filter also accepts any other name typed in. */
export const KNOWN_ENTITIES = [
  'patient',
  'user',
  'session',
  'organization',
  'test',
  'test_profile',
  'test_package',
  'bill',
  'payment',
  'sample',
  'test_result',
  'inventory_item',
] as const;

/** A stored value as text: null/undefined as an em dash, objects as compact JSON. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v === '' ? '""' : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
