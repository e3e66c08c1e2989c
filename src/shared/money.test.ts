import { describe, expect, it } from 'vitest';
import { formatInr, paiseToRupees, rupeesToPaise } from './money.js';

describe('rupeesToPaise', () => {
  it.each([
    [0, 0],
    [1, 100],
    [350, 35000],
    [2474.46, 247446],
    [0.01, 1],
  ])('%d rupees are %d paise', (rupees, paise) => {
    expect(rupeesToPaise(rupees)).toBe(paise);
  });

  it('is not thrown off by binary fractions like 0.1 + 0.2', () => {
    expect(rupeesToPaise(0.1 + 0.2)).toBe(30);
    expect(rupeesToPaise(19.99)).toBe(1999);
    expect(rupeesToPaise(1.15)).toBe(115);
    expect(rupeesToPaise(4.35)).toBe(435);
    expect(rupeesToPaise(1234567.89)).toBe(123456789);
  });

  it('rounds to the nearest paisa, halves upward', () => {
    expect(rupeesToPaise(2.675)).toBe(268);
    expect(rupeesToPaise(10.004)).toBe(1000);
    expect(rupeesToPaise(10.006)).toBe(1001);
  });

  it('always answers a whole number of paise', () => {
    for (let r = 0; r < 50; r += 0.07) expect(Number.isInteger(rupeesToPaise(r))).toBe(true);
  });
});

describe('paiseToRupees', () => {
  it('turns paise back into rupees with at most 2 decimals', () => {
    expect(paiseToRupees(247446)).toBe(2474.46);
    expect(paiseToRupees(35000)).toBe(350);
    expect(paiseToRupees(1)).toBe(0.01);
    expect(paiseToRupees(0)).toBe(0);
  });

  it('round-trips every amount a client can send', () => {
    for (const r of [0.01, 0.1, 0.3, 19.99, 99.95, 2474.46, 100000.01]) expect(paiseToRupees(rupeesToPaise(r))).toBe(r);
  });
});

describe('formatInr', () => {
  it('shows INR with Indian digit grouping and two decimals', () => {
    expect(formatInr(12345600)).toBe('₹1,23,456.00');
    expect(formatInr(1000000000)).toBe('₹1,00,00,000.00');
    expect(formatInr(123456789)).toBe('₹12,34,567.89');
    expect(formatInr(99999)).toBe('₹999.99');
  });

  it('shows small amounts and zero with the paise', () => {
    expect(formatInr(0)).toBe('₹0.00');
    expect(formatInr(5)).toBe('₹0.05');
    expect(formatInr(35000)).toBe('₹350.00');
  });

  it('shows a negative amount (a refund) with a minus sign', () => {
    expect(formatInr(-12345600)).toBe('-₹1,23,456.00');
  });

  it('formats a sum of paise exactly, where the same sum in rupees would drift', () => {
    const paise = rupeesToPaise(0.1) + rupeesToPaise(0.2);
    expect(formatInr(paise)).toBe('₹0.30');
  });
});
