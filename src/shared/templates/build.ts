import type { ChoiceParam, NumberParam } from './types.js';

/** The three examinations of a routine panel (urine, stool), in the order they are printed. */
export const ROUTINE_SECTIONS = [
  { key: 'physical', title: 'Physical examination' },
  { key: 'chemical', title: 'Chemical examination' },
  { key: 'microscopy', title: 'Microscopic examination' },
] as const;

/** A parameter chosen among `choices`; any choice outside `normal` flags it abnormal. */
export function choice(
  key: string,
  label: string,
  section: string,
  choices: readonly string[],
  normal: readonly string[],
  more: Pick<ChoiceParam, 'unit' | 'optional'> = {},
): ChoiceParam {
  return { key, label, section, kind: 'choice', choices, normal, ...more };
}

/**
 * Cells counted per high-power field under the microscope: whole numbers up to 500, a range such as
 * "8-10" accepted, high above `high`.
 */
export function cellsPerHpf(key: string, label: string, high: number): NumberParam {
  return {
    key,
    label,
    section: 'microscopy',
    kind: 'number',
    unit: '/hpf',
    decimals: 0,
    min: 0,
    max: 500,
    high,
    allowRange: true,
  };
}
