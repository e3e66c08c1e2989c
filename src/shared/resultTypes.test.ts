import { describe, expect, it } from 'vitest';
import { checkResultValue, deltaFailed, type ResultRules } from './resultTypes.js';
import { evaluateFormula, parseFormula } from './formula.js';
import { catalogueMatches, searchAlternatives } from './catalogueSearch.js';

const numeric: ResultRules = {
  name: 'Haemoglobin',
  result_type: 'numeric',
  unit: 'g/dL',
  decimals: 1,
  plausible_low: 1,
  plausible_high: 25,
  choices: null,
};
const choice: ResultRules = { ...numeric, name: 'HIV', result_type: 'choice', choices: ['Non-reactive', 'Reactive'] };
const text: ResultRules = { ...numeric, name: 'Smear', result_type: 'text' };

describe('result values are checked against the test type', () => {
  it.each([
    [numeric, '13.26', { ok: true, value: '13.26' }],
    [numeric, ' 7 ', { ok: true, value: '7' }],
    [numeric, '14.0', { ok: true, value: '14.0' }],
    [numeric, '4.20', { ok: true, value: '4.20' }],
    [numeric, '1,2', { ok: true, value: '1,2' }],
    [numeric, '<0.5', { ok: false }],
    [numeric, '<5', { ok: true, value: '<5' }],
    [numeric, '< 1.20', { ok: true, value: '< 1.20' }],
    [numeric, 'abc', { ok: false }],
    [numeric, '13.2 g', { ok: false }],
    [numeric, '150', { ok: false }],
    [numeric, '0.5', { ok: false }],
    [numeric, '', { ok: false }],
    [choice, 'reactive', { ok: true, value: 'Reactive' }],
    [choice, 'Positive', { ok: false }],
    [text, 'Microcytic hypochromic picture', { ok: true, value: 'Microcytic hypochromic picture' }],
  ] as const)('%#: %o "%s"', (rules, raw, expected) => {
    expect(checkResultValue(rules, raw)).toMatchObject(expected);
  });

  it('names the test, the unit and the limits in its messages', () => {
    expect(checkResultValue(numeric, 'abc')).toEqual({
      ok: false,
      message: 'Haemoglobin is a number in g/dL; "abc" is not a number',
    });
    expect(checkResultValue(numeric, '150')).toEqual({
      ok: false,
      message: 'Haemoglobin 150 g/dL is outside what is possible (1 to 25 g/dL); check the value',
    });
  });
});

describe('formulas', () => {
  const vars = (o: Record<string, number>) => new Map(Object.entries(o));
  it.each([
    ['CHOL - HDL - TG/5', { CHOL: 220, HDL: 45, TG: 150 }, 145],
    ['TG/5', { TG: 150 }, 30],
    ['ALB / (TP - ALB)', { ALB: 4, TP: 7 }, 4 / 3],
    ['IRON / TIBC * 100', { IRON: 90, TIBC: 300 }, 30],
    ['-a + 2 * (b - 1)', { A: 1, B: 3 }, 3],
  ])('%s', (f, v, expected) => {
    const out = evaluateFormula(parseFormula(f), vars(v));
    expect(out.ok && out.value).toBeCloseTo(expected, 9);
  });

  it('holds back when an input is missing or a condition fails, saying why', () => {
    const ldl = parseFormula('CHOL - HDL - TG/5 if TG <= 400');
    expect(ldl.codes).toEqual(['CHOL', 'HDL', 'TG']);
    expect(evaluateFormula(ldl, vars({ CHOL: 200, HDL: 40 }))).toEqual({ ok: false, reason: 'waiting for TG' });
    expect(evaluateFormula(ldl, vars({ CHOL: 300, HDL: 40, TG: 450 }))).toEqual({
      ok: false,
      reason: 'not valid when TG is 450 (the formula needs TG ≤ 400); measure it directly',
    });
    expect(evaluateFormula(parseFormula('A / B'), vars({ A: 1, B: 0 }))).toMatchObject({ ok: false });
  });

  it.each(['', 'CHOL -', '(CHOL', 'CHOL $ HDL', '12 + 3', 'CHOL if', 'CHOL if TG'])('refuses "%s"', (f) => {
    expect(() => parseFormula(f)).toThrow(/^Formula: /);
  });
});

describe('delta checks', () => {
  it.each([
    [{ delta_limit: 3, delta_kind: 'absolute' }, '9.5', '14.0', true],
    [{ delta_limit: 3, delta_kind: 'absolute' }, '11.0', '14.0', false],
    [{ delta_limit: 50, delta_kind: 'percent' }, '2.0', '1.2', true],
    [{ delta_limit: 50, delta_kind: 'percent' }, '1.7', '1.2', false],
    [{ delta_limit: null, delta_kind: null }, '1', '100', false],
    [{ delta_limit: 3, delta_kind: 'absolute' }, 'Reactive', '14', false],
  ])('%o: %s after %s -> %s', (rule, now, before, failed) => {
    expect(deltaFailed(rule, now, before)).toBe(failed);
  });
});

describe('catalogue search', () => {
  const t = (name: string, code: string, extra = {}) => ({ name, code, ...extra });
  it.each([
    [t('Fasting Blood Sugar (FBS)', 'FBS'), 'glucose', true],
    [t('Haemoglobin', 'HB'), 'hemoglobin', true],
    [t('Hemoglobin', 'HB'), 'haemoglobin', true],
    [t('Total Leucocyte Count', 'TLC'), 'leukocyte', true],
    [t('Potassium', 'K'), 'k', true],
    [t('Vitamin K', 'VITK'), 'potassium', false],
    [t('SGPT', 'SGPT'), 'alt', true],
    [t('Alkaline Phosphatase', 'ALP'), 'alt', false],
    [t('Mystery', 'MY', { aliases: ['Secret test'] }), 'secret', true],
  ])('%o answers "%s": %s', (item, q, yes) => {
    expect(catalogueMatches(item, q)).toBe(yes);
  });

  it('expands a word into its synonyms and spellings', () => {
    expect(searchAlternatives('CBC')).toEqual(expect.arrayContaining(['cbc', 'complete blood count', 'hemogram']));
  });
});
