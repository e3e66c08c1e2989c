import { describe, expect, it } from 'vitest';
import type { ResultSheet, ResultSheetRow, TestResult } from '@shared/schemas/results';
import { calcState } from './calculation';
import { jobsOf, type RowDraft } from './ResultSheetForm';

const row = (id: number, code: string, over: Partial<ResultSheetRow> = {}): ResultSheetRow => ({
  test_id: id,
  test_name: code,
  test_code: code,
  unit: 'mg/dL',
  normal_range: null,
  result_type: 'numeric',
  result_template: null,
  choices: [],
  decimals: 0,
  formula: null,
  result: null,
  qc: {
    test_id: id,
    test_name: code,
    as_of: '2026-12-02T00:00:00.000Z',
    equipment_id: null,
    held: false,
    message: null,
    holds: [],
  },
  ...over,
});

const LDL = row(4, 'LDL', { result_type: 'calculated', formula: 'CHOL - HDL - TG/5 if TG <= 400' });
const RATIO = row(5, 'LDLHDL', { result_type: 'calculated', formula: 'LDL / HDL', decimals: 1 });

function sheet(rows: ResultSheetRow[]): ResultSheet {
  return {
    sample: { id: 1 } as ResultSheet['sample'],
    can_enter: true,
    all_verified: false,
    tests: rows,
  } as ResultSheet;
}

const drafts = (values: Record<number, string>): Record<number, RowDraft> =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v, unit: '', notes: '' }]));

describe('a calculated test on the entry sheet', () => {
  const s = sheet([row(1, 'CHOL'), row(2, 'TG'), row(3, 'HDL'), LDL, RATIO]);
  const typed = (d: Record<number, string>) => (r: ResultSheetRow) => d[r.test_id] ?? '';

  it('shows the value its formula gives from the values on screen, chains included, and is not typed', () => {
    const d = { 1: '200', 2: '150', 3: '40' };
    expect(calcState(LDL, s, typed(d))).toEqual({ kind: 'calculated', value: '130' });
    expect(calcState(RATIO, s, typed(d))).toEqual({ kind: 'calculated', value: '3.3' });
    // A value typed into it anyway is never sent for the server to refuse or replace.
    const { jobs } = jobsOf(s, drafts({ ...d, 4: '125' }));
    expect(jobs.map((j) => j.row.test_code)).toEqual(['CHOL', 'TG', 'HDL']);
  });

  it('says what it waits for while a test it uses has no value', () => {
    expect(calcState(LDL, s, typed({ 1: '200' }))).toMatchObject({ kind: 'waiting', reason: 'waiting for HDL, TG' });
  });

  it("is typed where the formula does not apply (TG over 400), and that value is sent as the lab's", () => {
    const d = { 1: '260', 2: '480', 3: '35', 4: '150' };
    const calc = calcState(LDL, s, typed(d));
    expect(calc).toMatchObject({ kind: 'measured' });
    expect(calc?.kind === 'measured' && calc.reason).toContain('not valid when TG is 480');
    expect(jobsOf(s, drafts(d)).jobs.map((j) => j.row.test_code)).toContain('LDL');
  });

  it('a value measured directly earlier stays, with what the formula would give beside it', () => {
    const measured = {
      ...LDL,
      result: { id: 9, result_value: '150', calculated: false, status: 'completed' } as TestResult,
    };
    const d = { 1: '200', 2: '150', 3: '40' };
    expect(calcState(measured, sheet([row(1, 'CHOL'), row(2, 'TG'), row(3, 'HDL'), measured]), typed(d))).toEqual({
      kind: 'measured',
      reason: 'entered as measured directly',
      formula: '130',
    });
  });

  it('reads only the tests its formula names: a package sample with many calculated tests opens at once', () => {
    // Lipid, liver and kidney panels on one serum sample carry a dozen calculated tests; each must
    // look only at its own inputs, not walk through every other calculated test of the sheet.
    const others = Array.from({ length: 8 }, (_, i) =>
      row(10 + i, `CALC${i}`, { result_type: 'calculated', formula: `CHOL * ${i + 2}` }),
    );
    const big = sheet([row(1, 'CHOL'), row(2, 'TG'), row(3, 'HDL'), LDL, RATIO, ...others]);
    let reads = 0;
    const counted = (r: ResultSheetRow) => {
      reads += 1;
      return ({ 1: '200', 2: '150', 3: '40' } as Record<number, string>)[r.test_id] ?? '';
    };
    expect(calcState(RATIO, big, counted)).toEqual({ kind: 'calculated', value: '3.3' });
    // LDL / HDL reads HDL, and LDL's own inputs CHOL, HDL and TG: four reads, whatever else is on the sheet.
    expect(reads).toBe(4);
    reads = 0;
    expect(calcState(others[7]!, big, counted)).toEqual({ kind: 'calculated', value: '1800' });
    expect(reads).toBe(1);
  });
});
