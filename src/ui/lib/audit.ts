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

export { actionVerb, auditEntityName, KNOWN_AUDIT_ENTITIES as KNOWN_ENTITIES } from '@shared/audit';

/** A stored value as text: null/undefined as an em dash, objects as compact JSON. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v === '' ? '""' : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
