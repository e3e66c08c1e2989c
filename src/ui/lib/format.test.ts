import { afterEach, describe, expect, it } from 'vitest';
import { formatMoneyShort, setDisplayCurrency } from './format';

describe('formatMoneyShort (chart axes)', () => {
  afterEach(() => setDisplayCurrency('INR'));

  it.each([
    [0, '₹0'],
    [950, '₹950'],
    [12_500, '₹12.5k'],
    [3_00_000, '₹3 L'],
    [2_50_000, '₹2.5 L'],
    [87_29_152, '₹87.3 L'],
    [1_42_00_000, '₹1.4 Cr'],
    [-50_000, '-₹50k'],
  ])('INR %d -> %s', (rupees, text) => {
    expect(formatMoneyShort(rupees)).toBe(text);
  });

  it('other currencies use k, M and B', () => {
    setDisplayCurrency('USD');
    expect([formatMoneyShort(2_500_000), formatMoneyShort(300_000)]).toEqual(['$2.5M', '$300k']);
  });
});
