import { evaluateFormula, parseFormula } from '@shared/formula';
import { numericValue } from '@shared/flags';
import { formatCalculated } from '@shared/resultTypes';
import type { ResultSheet, ResultSheetRow } from '@shared/schemas/results';

/**
 * What a calculated test's field is on the entry sheet, from the values on screen (typed or saved):
 * - calculated: the formula applies; the field shows its value and cannot be typed (the server works
 *   it out when the tests it uses are saved, and refuses a typed value);
 * - waiting: some tests it uses have no value yet;
 * - measured: the formula's own condition fails (Friedewald with TG over 400): the lab measures the
 *   test directly, so the field is typed, and the server keeps that value.
 * A value measured directly earlier stays when the formula applies again; `formula` then shows what
 * the calculation would give beside it.
 */
export type CalcState =
  | { kind: 'calculated'; value: string }
  | { kind: 'waiting'; reason: string }
  | { kind: 'measured'; reason: string; formula?: string };

export function calcState(
  row: ResultSheetRow,
  sheet: ResultSheet,
  values: (row: ResultSheetRow) => string,
  seen: ReadonlySet<number> = new Set(),
): CalcState | null {
  if (row.result_type !== 'calculated' || !row.formula) return null;
  let f;
  try {
    f = parseFormula(row.formula);
  } catch {
    return null;
  }
  const vars = new Map<string, number>();
  // Only the tests the formula names: walking every other calculated test of the sheet grows with
  // the factorial of their number and froze the sheet of a package's serum sample.
  const uses = new Set(f.codes);
  for (const t of sheet.tests) {
    if (!uses.has(t.test_code.toUpperCase()) || t.test_id === row.test_id || seen.has(t.test_id)) continue;
    // A calculated input (LDL in LDL/HDL) counts with the value the sheet shows for it.
    const inner = calcState(t, sheet, values, new Set([...seen, row.test_id]));
    const own = inner?.kind === 'calculated' ? inner.value : inner?.kind === 'waiting' ? '' : values(t);
    const n = own.trim() ? numericValue(own.trim()) : null;
    if (n !== null) vars.set(t.test_code.toUpperCase(), n);
  }
  const outcome = evaluateFormula(f, vars);
  const r = row.result;
  const measuredBefore = r !== null && !r.calculated && r.status !== 'rejected';
  if (outcome.ok) {
    const value = formatCalculated(outcome.value, row.decimals);
    if (measuredBefore) return { kind: 'measured', reason: 'entered as measured directly', formula: value };
    return { kind: 'calculated', value };
  }
  if (outcome.reason.startsWith('not valid')) return { kind: 'measured', reason: outcome.reason };
  return { kind: 'waiting', reason: outcome.reason };
}
