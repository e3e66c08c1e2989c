/**
 * Result templates: a test whose result is not one number (urine routine, stool routine, semen
 * analysis, culture and sensitivity) is entered parameter by parameter. A panel template lists its
 * parameters in sections, each a choice among allowed values (some of them normal) or a number with
 * its reference limits; the culture template holds organisms and an antibiogram (./culture.ts).
 */

export type ParamFlag = 'normal' | 'low' | 'high' | 'abnormal';

interface ParamBase {
  /** The key in the stored value and in error paths (`structured.<key>`). */
  key: string;
  label: string;
  /** The section key it is printed and entered under. */
  section: string;
  /** Optional parameters may be left blank; the others must be filled before the result is saved. */
  optional?: boolean;
}

export interface ChoiceParam extends ParamBase {
  kind: 'choice';
  choices: readonly string[];
  /** The allowed values that are normal; any other choice flags the parameter abnormal. */
  normal: readonly string[];
  unit?: string;
}

export interface NumberParam extends ParamBase {
  kind: 'number';
  unit: string | null;
  decimals: number;
  /** What the method can give at all; beyond is a typing error (400). */
  min: number;
  max: number;
  /** Reference limits (inclusive): below `low` flags low, above `high` flags high. */
  low?: number;
  high?: number;
  /** Accepts a microscopy range such as "8-10" (judged by its upper end for high, lower end for low). */
  allowRange?: boolean;
}

export interface TextParam extends ParamBase {
  kind: 'text';
  maxLength: number;
}

export type TemplateParam = ChoiceParam | NumberParam | TextParam;

export interface PanelTemplate {
  kind: 'panel';
  id: string;
  name: string;
  /** The published source of its reference limits, printed under the table. */
  source?: string;
  sections: readonly { key: string; title: string }[];
  params: readonly TemplateParam[];
  /** Checks across parameters (PR cannot exceed total motility): the key named and why. */
  crossChecks?: readonly ((numbers: Record<string, number | undefined>) => { key: string; message: string } | null)[];
}

export interface CultureTemplate {
  kind: 'culture';
  id: string;
  name: string;
  /** The specimen the entry screen proposes (the lab may type another). */
  defaultSpecimen: string;
}

export type ResultTemplate = PanelTemplate | CultureTemplate;

/** The reference text of a parameter as the report prints it: "Nil", "1.005 – 1.030", "≥ 1.4". */
export function referenceText(p: TemplateParam): string {
  if (p.kind === 'choice') return p.normal.join(' / ');
  if (p.kind === 'text') return '';
  const f = (n: number) => n.toFixed(p.decimals);
  if (p.low != null && p.high != null) return `${f(p.low)} – ${f(p.high)}`;
  if (p.low != null) return `≥ ${f(p.low)}`;
  if (p.high != null) return `≤ ${f(p.high)}`;
  return '';
}
