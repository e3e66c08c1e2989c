import { invisibleCharacter } from '../schemas/common.js';
import { cultureValueSchema, GROWTH_WORDS, type CultureValue } from './culture.js';
import { semenAnalysis } from './semen.js';
import { stoolRoutine } from './stool.js';
import { urineRoutine } from './urine.js';
import { urineCulture } from './culture.js';
import type { NumberParam, PanelTemplate, ParamFlag, ResultTemplate, TemplateParam } from './types.js';

export * from './types.js';
export * from './culture.js';

/** The templates a catalogue test may use (tests.result_template). */
export const TEMPLATE_IDS = ['urine_routine', 'stool_routine', 'semen_analysis', 'culture'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

const ALL: Record<TemplateId, ResultTemplate> = {
  urine_routine: urineRoutine,
  stool_routine: stoolRoutine,
  semen_analysis: semenAnalysis,
  culture: urineCulture,
};

export function templateById(id: string | null | undefined): ResultTemplate | null {
  return id && id in ALL ? ALL[id as TemplateId] : null;
}

/** What is stored with the result (test_results.structured_value) and answered by the API. */
export interface StructuredValue {
  template: string;
  /** Panel templates: each parameter's value as text ("2+", "1.020", "8-10"); blank ones left out. */
  values: Record<string, string> | null;
  /** Panel templates: each entered parameter's flag against its normal values or limits. */
  flags: Record<string, ParamFlag> | null;
  /** The culture template's findings and antibiogram. */
  culture: CultureValue | null;
}

export type StructuredCheck =
  { ok: true; value: StructuredValue; flag: ParamFlag; summary: string } | { ok: false; path: string; message: string };

const fail = (path: string, message: string): StructuredCheck => ({
  ok: false,
  path: `structured${path ? `.${path}` : ''}`,
  message,
});

const RANGE = /^(\d+(?:\.\d+)?)\s*[-–]\s*(\d+(?:\.\d+)?)$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A number parameter's value: its text as stored, and its low and high ends for the flag. */
function numberOf(p: NumberParam, raw: unknown): { text: string; lo: number; hi: number } | string {
  const t = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : null;
  if (t === null) return `${p.label} must be a number`;
  const range = p.allowRange ? RANGE.exec(t) : null;
  const ends = range ? [Number(range[1]), Number(range[2])] : DECIMAL.test(t) ? [Number(t)] : null;
  if (!ends || ends.some((n) => !Number.isFinite(n)))
    return `${p.label} must be a number${p.allowRange ? ' or a range such as 8-10' : ''}${p.unit ? ` (${p.unit})` : ''}`;
  const [lo, hi] = [ends[0]!, ends[ends.length - 1]!];
  if (lo > hi) return `${p.label}: the range must go from the lower to the higher number`;
  if (lo < p.min || hi > p.max)
    return `${p.label} must be ${p.min} to ${p.max}${p.unit ? ` ${p.unit}` : ''}; check the value`;
  const f = (n: number) => n.toFixed(p.decimals);
  return { text: ends.length === 2 ? `${f(lo)}-${f(hi)}` : f(lo), lo, hi };
}

function flagOfNumber(p: NumberParam, lo: number, hi: number): ParamFlag {
  if (p.low != null && lo < p.low) return 'low';
  if (p.high != null && hi > p.high) return 'high';
  return 'normal';
}

/** One parameter's value checked: the stored text and its flag, or why it is refused. */
function checkParam(p: TemplateParam, raw: unknown): { text: string; flag: ParamFlag | null } | string | null {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return null;
  if (p.kind === 'choice') {
    const hit =
      typeof raw === 'string' ? p.choices.find((c) => c.toLowerCase() === raw.trim().toLowerCase()) : undefined;
    if (!hit) return `${p.label} must be one of: ${p.choices.join(', ')}`;
    return { text: hit, flag: p.normal.includes(hit) ? 'normal' : 'abnormal' };
  }
  if (p.kind === 'text') {
    if (typeof raw !== 'string') return `${p.label} must be text`;
    const t = raw.trim();
    if (t.length > p.maxLength) return `${p.label} must be at most ${p.maxLength} characters`;
    const bad = invisibleCharacter(t);
    if (bad) return `${p.label} contains an invisible control character (${bad}); type it again without it`;
    return { text: t, flag: null };
  }
  const n = numberOf(p, raw);
  if (typeof n === 'string') return n;
  return { text: n.text, flag: flagOfNumber(p, n.lo, n.hi) };
}

/** The row's flag: the one direction when every flagged parameter agrees, else abnormal. */
function summaryFlag(flags: ParamFlag[]): ParamFlag {
  const off = [...new Set(flags.filter((f) => f !== 'normal'))];
  if (!off.length) return 'normal';
  return off.length === 1 ? off[0]! : 'abnormal';
}

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 199)}…` : s);

function checkPanel(t: PanelTemplate, raw: Record<string, unknown>): StructuredCheck {
  const known = new Set(t.params.map((p) => p.key));
  const unknown = Object.keys(raw).find((k) => !known.has(k));
  if (unknown) return fail(unknown, `${unknown} is not a parameter of ${t.name}`);
  const values: Record<string, string> = {};
  const flags: Record<string, ParamFlag> = {};
  const numbers: Record<string, number | undefined> = {};
  for (const p of t.params) {
    const c = checkParam(p, raw[p.key]);
    if (typeof c === 'string') return fail(p.key, c);
    if (c === null) {
      if (!p.optional) return fail(p.key, `${p.label} is required`);
      continue;
    }
    values[p.key] = c.text;
    if (c.flag) flags[p.key] = c.flag;
    if (p.kind === 'number' && DECIMAL.test(c.text)) numbers[p.key] = Number(c.text);
  }
  for (const check of t.crossChecks ?? []) {
    const problem = check(numbers);
    if (problem) return fail(problem.key, problem.message);
  }
  const off = t.params.filter((p) => flags[p.key] && flags[p.key] !== 'normal');
  const summary = off.length
    ? `Abnormal: ${off.map((p) => `${p.label} ${values[p.key]}${'unit' in p && p.unit ? ` ${p.unit}` : ''}`).join('; ')}`
    : 'All parameters within reference limits';
  return {
    ok: true,
    value: { template: t.id, values, flags, culture: null },
    flag: summaryFlag(Object.values(flags)),
    summary: clip(summary),
  };
}

const STORED_KEYS = new Set(['template', 'values', 'flags', 'culture']);

/** A record sent back as GET answered it ({template, values, flags, culture}): its parameters. */
function unwrapStored(raw: Record<string, unknown>): unknown {
  const keys = Object.keys(raw);
  if (typeof raw.template !== 'string' || !keys.every((k) => STORED_KEYS.has(k))) return raw;
  return raw.values ?? raw.culture ?? {};
}

/** A colony count as printed: 100000 -> "1,00,000". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-IN');
}

export function cultureSummary(c: CultureValue): string {
  if (c.growth === 'no_growth') return `No growth after ${c.incubation_hours} h`;
  if (c.growth === 'mixed') return GROWTH_WORDS.mixed;
  return clip(
    c.organisms
      .map((o) => `${o.name}${o.colony_count != null ? ` (${formatCount(o.colony_count)} CFU/mL)` : ''}`)
      .join('; '),
  );
}

/**
 * A structured result as typed (parameters for a panel, findings and antibiogram for a culture)
 * checked against its template: the value to store, the row's flag and the one-line summary the
 * lists and exports show; or the parameter at fault (`structured.protein`) and why.
 */
export function checkStructured(t: ResultTemplate, raw: unknown): StructuredCheck {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return fail('', `${t.name} is entered parameter by parameter: send structured as an object`);
  raw = unwrapStored(raw as Record<string, unknown>);
  if (t.kind === 'panel') return checkPanel(t, raw as Record<string, unknown>);
  const r = cultureValueSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    return fail(issue.path.join('.'), issue.message);
  }
  const c = r.data;
  const flag: ParamFlag = c.growth === 'no_growth' ? 'normal' : 'abnormal';
  return {
    ok: true,
    value: { template: t.id, values: null, flags: null, culture: c },
    flag,
    summary: cultureSummary(c),
  };
}

/** The stored JSON read back; null when absent or not one of ours. */
export function parseStructured(json: string | null | undefined): StructuredValue | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as StructuredValue;
    return v && typeof v === 'object' && typeof v.template === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** One parameter as typed on the entry screen: its flag, the reason it would be refused, or nothing yet. */
export function previewParam(p: TemplateParam, raw: string): { flag: ParamFlag | null } | { error: string } | null {
  const c = checkParam(p, raw);
  if (c === null) return null;
  return typeof c === 'string' ? { error: c } : { flag: c.flag };
}

export function paramsBySection(t: PanelTemplate): { key: string; title: string; params: TemplateParam[] }[] {
  return t.sections.map((s) => ({ ...s, params: t.params.filter((p) => p.section === s.key) }));
}
