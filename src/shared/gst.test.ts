import { describe, expect, it } from 'vitest';
import { billTax, financialYearOf, invoiceNumberOf, shareDiscount, splitTax, stateOfGstin } from './gst.js';

describe('GST', () => {
  it.each([
    // taxable, rate, interState, cgst, sgst, igst
    [100_000, 18, false, 9_000, 9_000, 0],
    [100_000, 18, true, 0, 0, 18_000],
    [33_333, 18, false, 3_000, 3_000, 0],
    [33_333, 18, true, 0, 0, 6_000],
    // The audit's line: 308.74 at 12%. Within the state 18.52 + 18.52; across, 12% once is 37.05.
    [30_874, 12, false, 1_852, 1_852, 0],
    [30_874, 12, true, 0, 0, 3_705],
    [12_345, 5, false, 309, 309, 0],
    [50_000, 0, false, 0, 0, 0],
  ])('%i paise at %i%% (inter-state %s)', (taxable, rate, inter, cgst, sgst, igst) => {
    const t = splitTax(taxable, rate, inter);
    expect([t.cgstPaise, t.sgstPaise, t.igstPaise]).toEqual([cgst, sgst, igst]);
    expect(t.taxPaise).toBe(cgst + sgst + igst);
  });

  it('a bill across states carries IGST at the rate once, per line after its share of the discount', () => {
    const t = billTax([{ totalPaise: 30_874, ratePercent: 12 }], 0, 0, true);
    expect(t.lines[0]).toMatchObject({ igstPaise: 3_705, cgstPaise: 0, sgstPaise: 0, taxPaise: 3_705 });
    expect(t.taxPaise).toBe(3_705);
    expect(billTax([{ totalPaise: 30_874, ratePercent: 12 }], 0, 0, false).taxPaise).toBe(3_704);
  });

  it('shares a discount exactly, largest lines taking the rounding paise', () => {
    expect(shareDiscount([100, 100, 100], 100)).toEqual([34, 33, 33]);
    expect(shareDiscount([30_000, 10_000], 4_000)).toEqual([3_000, 1_000]);
    expect(shareDiscount([1, 2], 0)).toEqual([0, 0]);
    const s = shareDiscount([12_345, 67_891, 5], 9_999);
    expect(s.reduce((a, b) => a + b, 0)).toBe(9_999);
  });

  it('taxes only taxable lines, after their share of the bill discount; the fee is exempt', () => {
    const t = billTax(
      [
        { totalPaise: 40_000, ratePercent: 0 },
        { totalPaise: 60_000, ratePercent: 18 },
      ],
      0,
      10_000,
    );
    expect(t.lines.map((l) => l.taxablePaise)).toEqual([36_000, 54_000]);
    expect(t.taxPaise).toBe(9_720);
    expect(t.exemptPaise).toBe(36_000);
    expect(t.taxablePaise).toBe(54_000);
    expect(billTax([{ totalPaise: 50_000, ratePercent: 0 }], 30_000, 0).taxPaise).toBe(0);
  });

  it('numbers invoices per financial year, changing on 1 April, in at most 16 characters', () => {
    expect(financialYearOf('2026-03-31')).toBe('2526');
    expect(financialYearOf('2026-04-01')).toBe('2627');
    expect(financialYearOf('2099-12-31')).toBe('9900');
    const n = invoiceNumberOf('INV', '2627', 999_999);
    expect(n).toBe('INV2627-999999');
    expect(n.length).toBeLessThanOrEqual(16);
  });

  it('reads the state from a GSTIN', () => {
    expect(stateOfGstin('29ABCDE1234F1Z5')).toBe('29');
    expect(stateOfGstin('99ABCDE1234F1Z5')).toBeNull();
    expect(stateOfGstin(null)).toBeNull();
  });
});
