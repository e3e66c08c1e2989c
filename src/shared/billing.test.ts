import { describe, expect, it } from 'vitest';
import {
  amountInWords,
  billAmounts,
  billStatusOf,
  lineAmounts,
  numberToIndianWords,
  paymentStatusOf,
  percentOf,
} from './billing.js';

describe('percentOf rounds half up to the paisa', () => {
  it.each([
    [10000, 18, 1800],
    [333, 10, 33], // 33.3
    [335, 10, 34], // 33.5 -> 34
    [125, 2, 3], // 2.5 -> 3
    [124, 2, 2], // 2.48
    [311905, 0, 0],
    [1, 50, 1], // 0.5 -> 1
    [99999, 12.5, 12500], // 12499.875
    [100, 100, 100],
    [199995, 0.01, 20], // 19.9995
  ])('%i paise x %f%% = %i', (amount, pct, expected) => {
    expect(percentOf(amount, pct)).toBe(expected);
  });
});

describe('the OP bill rule', () => {
  it('line: discount = price x qty x % / 100; total = price x qty - discount', () => {
    expect(lineAmounts({ unitPricePaise: 15000, qty: 2, discountPercent: 10 })).toEqual({
      grossPaise: 30000,
      discountPaise: 3000,
      totalPaise: 27000,
    });
    expect(lineAmounts({ unitPricePaise: 199900, qty: 1, discountPercent: 5 })).toEqual({
      grossPaise: 199900,
      discountPaise: 9995,
      totalPaise: 189905,
    });
  });

  it('subtotal + fee, bill discount on that, tax on the discounted amount', () => {
    const b = billAmounts({
      lines: [
        { unitPricePaise: 15000, qty: 2, discountPercent: 10 },
        { unitPricePaise: 45000, qty: 1, discountPercent: 0 },
        { unitPricePaise: 199900, qty: 1, discountPercent: 5 },
      ],
      consultationFeePaise: 50000,
      discountPercent: 10,
      taxPercent: 5,
    });
    expect(b.subtotalPaise).toBe(261905);
    expect(b.totalBeforeDiscountPaise).toBe(311905);
    expect(b.discountPaise).toBe(31191); // 31190.5 rounds up
    expect(b.discountedPaise).toBe(280714);
    expect(b.taxPaise).toBe(14036); // 14035.7
    expect(b.finalPaise).toBe(294750);
  });

  it('no doctor: no fee; 100% discount: zero, never negative', () => {
    const b = billAmounts({
      lines: [{ unitPricePaise: 10050, qty: 3, discountPercent: 0 }],
      consultationFeePaise: 0,
      discountPercent: 100,
      taxPercent: 18,
    });
    expect(b.totalBeforeDiscountPaise).toBe(30150);
    expect(b.finalPaise).toBe(0);
  });
});

describe('statuses', () => {
  it('payment status from the sum of payments', () => {
    expect(paymentStatusOf(1000, 0)).toBe('unpaid');
    expect(paymentStatusOf(1000, 1)).toBe('partial');
    expect(paymentStatusOf(1000, 1000)).toBe('paid');
    expect(paymentStatusOf(0, 0)).toBe('paid');
  });

  it('bill status: cancelled, paid, overdue past the due date, partial, pending', () => {
    const base = { cancelled: false, finalPaise: 1000, paidPaise: 0, dueDate: '2026-11-28', today: '2026-11-21' };
    expect(billStatusOf(base)).toBe('pending');
    expect(billStatusOf({ ...base, paidPaise: 500 })).toBe('partial');
    expect(billStatusOf({ ...base, paidPaise: 1000 })).toBe('paid');
    expect(billStatusOf({ ...base, today: '2026-11-29' })).toBe('overdue');
    expect(billStatusOf({ ...base, today: '2026-11-28' })).toBe('pending');
    expect(billStatusOf({ ...base, cancelled: true, paidPaise: 1000 })).toBe('cancelled');
  });
});

describe('amount in words, Indian numbering', () => {
  it.each([
    [0, 'Zero'],
    [15, 'Fifteen'],
    [100, 'One Hundred'],
    [2474, 'Two Thousand Four Hundred Seventy Four'],
    [100000, 'One Lakh'],
    [1234567, 'Twelve Lakh Thirty Four Thousand Five Hundred Sixty Seven'],
    [10000000, 'One Crore'],
    [987654321, 'Ninety Eight Crore Seventy Six Lakh Fifty Four Thousand Three Hundred Twenty One'],
  ])('%i', (n, words) => expect(numberToIndianWords(n)).toBe(words));

  it('rupees and paise', () => {
    expect(amountInWords(247446)).toBe('Rupees Two Thousand Four Hundred Seventy Four and Forty Six Paise Only');
    expect(amountInWords(50000)).toBe('Rupees Five Hundred Only');
  });
});
