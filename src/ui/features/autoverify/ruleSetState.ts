import type { Activation, AutoverifyState, RuleSet } from '@shared/schemas/autoverify';
import type { BadgeTone } from '@/components';

export interface VersionState {
  label: 'Draft' | 'Approved' | 'Shadow' | 'Live' | 'Scheduled' | 'Retired';
  tone: BadgeTone;
  /** The activation the state comes from (in force, scheduled, or the last one of a retired version). */
  activation: Activation | null;
}

/**
 * Where a version stands, from its status and the lab's state: a rule set is in force by
 * activation, not by status, so "live" and "shadow" are read from the activation in force now.
 */
export function versionState(r: RuleSet, state: AutoverifyState | undefined): VersionState {
  if (r.status === 'draft') return { label: 'Draft', tone: 'grey', activation: null };
  if (state?.in_force?.rule_set_id === r.id)
    return state.in_force.mode === 'live'
      ? { label: 'Live', tone: 'green', activation: state.in_force }
      : { label: 'Shadow', tone: 'blue', activation: state.in_force };
  if (state?.scheduled?.rule_set_id === r.id) return { label: 'Scheduled', tone: 'amber', activation: state.scheduled };
  const last = r.activations.at(-1) ?? null;
  if (last) return { label: 'Retired', tone: 'grey', activation: last };
  return { label: 'Approved', tone: 'amber', activation: null };
}

export const modeName = (mode: Activation['mode']) => (mode === 'live' ? 'live' : 'shadow');
