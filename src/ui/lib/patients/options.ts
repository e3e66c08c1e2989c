import type { SelectOption } from '@/components';
import {
  AGE_RANGES,
  BLOOD_GROUPS,
  EMERGENCY_RELATIONS,
  GENDERS,
  MEMBERSHIP_TYPES,
  PATIENT_SEARCH_TYPES,
  PATIENT_TITLES,
} from '@shared/constants';
import { AGE_UNITS } from '@shared/age';
import { humanize } from '@/lib/format';
import { choiceOptions } from '@/lib/usePagedList';

/** Select options built from the spec's lists (src/shared/constants), so no screen retypes them. */
export const GENDER_OPTIONS: SelectOption[] = GENDERS.map((g) => ({ value: g, label: g }));
export const GENDER_FILTER_OPTIONS: SelectOption[] = [{ value: 'all', label: 'All genders' }, ...GENDER_OPTIONS];

export const MEMBERSHIP_OPTIONS: SelectOption[] = MEMBERSHIP_TYPES.map((m) => ({
  value: m,
  label: membershipLabel(m),
}));
export const MEMBERSHIP_FILTER_OPTIONS: SelectOption[] = choiceOptions(
  'All memberships',
  MEMBERSHIP_TYPES,
  membershipLabel,
);

export const TITLE_OPTIONS: SelectOption[] = PATIENT_TITLES.map((t) => ({ value: t, label: t }));
export const AGE_UNIT_OPTIONS: SelectOption[] = AGE_UNITS.map((u) => ({ value: u, label: humanize(u) }));

export const BLOOD_GROUP_OPTIONS: SelectOption[] = BLOOD_GROUPS.map((b) => ({ value: b, label: b }));
export const RELATION_OPTIONS: SelectOption[] = EMERGENCY_RELATIONS.map((r) => ({ value: r, label: r }));

export const AGE_RANGE_OPTIONS: SelectOption[] = choiceOptions('All ages', AGE_RANGES, (a) =>
  a === '65+' ? 'Over 65' : `${a} years`,
);

const SEARCH_TYPE_LABELS: Record<(typeof PATIENT_SEARCH_TYPES)[number], string> = {
  all: 'Search all fields',
  name: 'Search by name',
  patient_id: 'Search by patient ID',
  mobile: 'Search by mobile',
  email: 'Search by email',
};
export const SEARCH_TYPE_OPTIONS: SelectOption[] = PATIENT_SEARCH_TYPES.map((t) => ({
  value: t,
  label: SEARCH_TYPE_LABELS[t],
}));

/** "none" reads as "None" rather than a bare enum value; the others as "Basic", "Premium", "Corporate". */
export function membershipLabel(m: string | null | undefined): string {
  if (!m) return 'None';
  return humanize(m);
}

/** Inclusive bounds of a spec age range ("65+" has no upper bound; 65 itself belongs to 51-65). */
export function ageBounds(range: string): { min: number; max: number } | null {
  if (range === '65+') return { min: 66, max: Number.POSITIVE_INFINITY };
  const m = /^(\d+)-(\d+)$/.exec(range);
  return m ? { min: Number(m[1]), max: Number(m[2]) } : null;
}
