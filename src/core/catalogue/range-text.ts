import { RANGE_AGE_UNITS, type RangeAgeUnit, type ReferenceRange } from '../../shared/flags.js';

/**
 * A test's reference bands in one spreadsheet cell, as a person writes them:
 *
 *   0-7 days: 14.5-22.5; 2-6 years: 11.5-13.5; Female 18+ years: 12.0-15.0 [critical <=7 >=20]
 *
 * Bands are separated by ";" (or a line break), each "who: range", who being a sex (Male, Female,
 * M, F, or nothing for either) and an age band ("a-b unit" from a up to, not including, b; "a+ unit"
 * from a; "<b unit" under b; units days, months or years), or "Everyone". The order is kept: the
 * first band that fits the patient is used. Export writes this form, so a file exported can be
 * imported again unchanged; a cell starting with "[" is read as the API's JSON list.
 */

export type ParsedBands = { bands: Record<string, unknown>[] } | { index: number; message: string };

const UNIT_WORDS: Record<string, RangeAgeUnit> = {
  d: 'days',
  day: 'days',
  days: 'days',
  m: 'months',
  mo: 'months',
  month: 'months',
  months: 'months',
  y: 'years',
  yr: 'years',
  yrs: 'years',
  year: 'years',
  years: 'years',
};
const SEX_WORDS: Record<string, 'Male' | 'Female' | null> = {
  m: 'Male',
  male: 'Male',
  f: 'Female',
  female: 'Female',
  any: null,
  all: null,
  everyone: null,
};
const UNIT = `(${Object.keys(UNIT_WORDS).join('|')})`;
const BETWEEN = new RegExp(`^(\\d+)\\s*-\\s*(\\d+)\\s*${UNIT}$`);
const FROM = new RegExp(`^(\\d+)\\s*\\+\\s*${UNIT}$|^(\\d+)\\s*${UNIT}\\s*\\+$`);
const UNDER = new RegExp(`^<\\s*(\\d+)\\s*${UNIT}$`);
const CRITICAL = /\s*\[\s*critical\b([^\]]*)\]\s*$/i;
const HINT = 'write e.g. "0-7 days: 14.5-22.5", "Female 18+ years: 12.0-15.0" or "Everyone: 70-100"';

function parseWho(who: string): Record<string, unknown> | string {
  const out: Record<string, unknown> = {};
  let rest = who.trim();
  const first = /^(\S+)\s*(.*)$/.exec(rest);
  if (first && first[1]!.toLowerCase() in SEX_WORDS) {
    out.sex = SEX_WORDS[first[1]!.toLowerCase()];
    rest = first[2]!.trim();
  }
  if (!rest) return out;
  const lower = rest.toLowerCase();
  let m = BETWEEN.exec(lower);
  if (m) return { ...out, age_min: Number(m[1]), age_max: Number(m[2]), age_unit: UNIT_WORDS[m[3]!] };
  m = FROM.exec(lower);
  if (m) return { ...out, age_min: Number(m[1] ?? m[3]), age_unit: UNIT_WORDS[(m[2] ?? m[4])!] };
  m = UNDER.exec(lower);
  if (m) return { ...out, age_max: Number(m[1]), age_unit: UNIT_WORDS[m[2]!] };
  return `"${who.trim()}" is not a sex and age band (${HINT})`;
}

function parseCritical(text: string): Record<string, number> | string {
  const out: Record<string, number> = {};
  for (const part of text.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(<=|≤|>=|≥)\s*([-+]?\d+(?:\.\d+)?)$/.exec(part);
    if (!m) return `the critical limits "${text.trim()}" are not understood (write e.g. [critical <=7 >=20])`;
    out[m[1] === '<=' || m[1] === '≤' ? 'critical_low' : 'critical_high'] = Number(m[2]);
  }
  return out;
}

/** The bands of a cell; or which band (0-based) is wrong and why. */
export function parseBandsText(text: string): ParsedBands {
  const parts = text
    .split(/[;\n]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const bands: Record<string, unknown>[] = [];
  for (const [index, part] of parts.entries()) {
    const colon = part.indexOf(':');
    if (colon < 0) return { index, message: `"${part}" has no ":" between who and the range (${HINT})` };
    const who = parseWho(part.slice(0, colon));
    if (typeof who === 'string') return { index, message: who };
    let range = part.slice(colon + 1).trim();
    const crit = CRITICAL.exec(range);
    let critical: Record<string, number> = {};
    if (crit) {
      const c = parseCritical(crit[1]!);
      if (typeof c === 'string') return { index, message: c };
      critical = c;
      range = range.slice(0, crit.index).trim();
    }
    if (!range) return { index, message: `"${part}" has no range after the ":"` };
    bands.push({ ...who, range, ...critical });
  }
  return { bands };
}

function whoText(b: ReferenceRange): string {
  const unit = b.age_unit && (RANGE_AGE_UNITS as readonly string[]).includes(b.age_unit) ? b.age_unit : 'years';
  const age =
    b.age_min != null && b.age_max != null
      ? `${b.age_min}-${b.age_max} ${unit}`
      : b.age_min != null
        ? `${b.age_min}+ ${unit}`
        : b.age_max != null
          ? `<${b.age_max} ${unit}`
          : '';
  return [b.sex ?? '', age].filter(Boolean).join(' ') || 'Everyone';
}

/**
 * The cell text of a test's bands. A range text the cell form cannot hold (one with ";", a line
 * break, or ending in "]") falls back to the JSON list, which import reads too.
 */
export function bandsText(bands: readonly ReferenceRange[]): string | null {
  if (!bands.length) return null;
  if (bands.some((b) => /[;\n]|\]\s*$/.test(b.range))) return JSON.stringify(bands);
  return bands
    .map((b) => {
      const crit = [
        b.critical_low != null ? `<=${b.critical_low}` : '',
        b.critical_high != null ? `>=${b.critical_high}` : '',
      ].filter(Boolean);
      return `${whoText(b)}: ${b.range}${crit.length ? ` [critical ${crit.join(' ')}]` : ''}`;
    })
    .join('; ');
}
