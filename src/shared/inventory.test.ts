import { describe, expect, it } from 'vitest';
import {
  alertConditions,
  chooseLots,
  chooseLotsForRemoval,
  consumableStatus,
  daysOfStock,
  expiryState,
  reagentStatus,
  reorderAdvice,
  reorderPoint,
  stockLevel,
  stockStatus,
  type LotStock,
} from './inventory.js';

const TODAY = '2026-06-15';

describe('stock status (Inventory Management): low at or below minimum, overstocked at or above maximum', () => {
  it.each([
    [0, 10, 100, 'low_stock'],
    [10, 10, 100, 'low_stock'],
    [11, 10, 100, 'in_stock'],
    [99, 10, 100, 'in_stock'],
    [100, 10, 100, 'overstocked'],
    [150, 10, 100, 'overstocked'],
    [500, 10, null, 'in_stock'],
    [0, 0, null, 'low_stock'],
  ] as const)('stock %i, min %i, max %s -> %s', (current, min, max, want) => {
    expect(stockStatus(current, min, max)).toBe(want);
  });
});

describe('reagent expiry: expired once past, expiring soon within 30 days', () => {
  it.each([
    ['2026-06-14', 'expired'],
    ['2026-06-15', 'expiring_soon'],
    ['2026-07-15', 'expiring_soon'],
    ['2026-07-16', 'good'],
    [null, 'good'],
  ] as const)('expiry %s -> %s', (expiry, want) => {
    expect(expiryState(expiry, TODAY)).toBe(want);
  });
  it('the lab setting moves the boundary', () => {
    expect(expiryState('2026-06-25', TODAY, 10)).toBe('expiring_soon');
    expect(expiryState('2026-06-26', TODAY, 10)).toBe('good');
  });
});

describe('reagent status', () => {
  const f = (current: number, usable: number, minimum: number, earliestExpiry: string | null) => ({
    current,
    usable,
    minimum,
    maximum: null,
    earliestExpiry,
  });
  it.each([
    [f(0, 0, 5, null), 'out_of_stock'],
    [f(10, 0, 5, '2026-06-14'), 'expired'],
    [f(10, 6, 5, '2026-06-14'), 'expired'],
    [f(5, 5, 5, '2026-06-15'), 'low_stock'],
    [f(6, 6, 5, '2026-06-15'), 'in_stock'],
  ] as const)('%j -> %s', (figures, want) => {
    expect(reagentStatus(figures, TODAY)).toBe(want);
  });
});

describe('consumable status and level', () => {
  it.each([
    [0, 10, 20, 'out_of_stock'],
    [10, 10, 20, 'low_stock'],
    [11, 10, 20, 'reorder'],
    [12, 10, 20, 'reorder'],
    [13, 10, 20, 'in_stock'],
    [10, 10, 0, 'low_stock'],
    [11, 10, 0, 'in_stock'],
  ] as const)('usable %i, min %i, margin %i%% -> %s', (usable, minimum, margin, want) => {
    expect(consumableStatus({ usable, minimum }, margin)).toBe(want);
  });
  it('reorder point is the minimum plus the margin, rounded up', () => {
    expect(reorderPoint(10, 20)).toBe(12);
    expect(reorderPoint(7, 20)).toBe(9);
    expect(reorderPoint(0, 20)).toBe(0);
  });
  it.each([
    [10, 10, 100, 'low'],
    [11, 10, 100, 'normal'],
    [79, 10, 100, 'normal'],
    [80, 10, 100, 'high'],
    [500, 10, null, 'normal'],
  ] as const)('level of %i (min %i, max %s) -> %s', (q, min, max, want) => {
    expect(stockLevel(q, min, max)).toBe(want);
  });
});

describe('alert conditions', () => {
  const settings = { expiryWarningDays: 30, approachingMarginPercent: 20 };
  const types = (usable: number, current = usable, maximum: number | null = 100, expiry: string | null = null) =>
    alertConditions({ current, usable, minimum: 10, maximum, earliestExpiry: expiry, unit: 'mL' }, TODAY, settings).map(
      (c) => `${c.type}:${c.priority}`,
    );
  it.each([
    [0, ['out_of_stock:critical']],
    [1, ['low_stock:high']],
    [10, ['low_stock:high']],
    [11, ['approaching_minimum:medium']],
    [12, ['approaching_minimum:medium']],
    [13, []],
    [99, []],
    [100, ['overstock:low']],
  ] as const)('usable %i -> %j', (usable, want) => {
    expect(types(usable)).toEqual(want);
  });
  it('expiry: past is critical, within the warning days medium, later nothing; no stock, no expiry alert', () => {
    expect(types(50, 50, null, '2026-06-14')).toEqual(['expiry_warning:critical']);
    expect(types(50, 50, null, '2026-07-15')).toEqual(['expiry_warning:medium']);
    expect(types(50, 50, null, '2026-07-16')).toEqual([]);
    expect(types(0, 0, null, '2026-06-14')).toEqual(['out_of_stock:critical']);
  });
});

describe('lot choice: earliest-expiring usable lot first', () => {
  const lots: LotStock[] = [
    { id: 1, expiry_date: '2026-12-31', remaining: 50 },
    { id: 2, expiry_date: '2026-08-01', remaining: 5 },
    { id: 3, expiry_date: '2026-06-10', remaining: 20 },
    { id: 4, expiry_date: null, remaining: 10 },
    { id: 5, expiry_date: '2026-08-01', remaining: 0 },
  ];
  it.each([
    [3, false, [[2, 3]]],
    [5, false, [[2, 5]]],
    [
      6,
      false,
      [
        [2, 5],
        [1, 1],
      ],
    ],
    [
      55,
      false,
      [
        [2, 5],
        [1, 50],
      ],
    ],
    [
      60,
      false,
      [
        [2, 5],
        [1, 50],
        [4, 5],
      ],
    ],
    [
      65,
      false,
      [
        [2, 5],
        [1, 50],
        [4, 10],
      ],
    ],
    [66, false, null],
    [
      66,
      true,
      [
        [2, 5],
        [1, 50],
        [4, 10],
        [3, 1],
      ],
    ],
    [86, true, null],
  ] as const)('take %i (override %s) -> %j', (quantity, override, want) => {
    const got = chooseLots(lots, quantity, TODAY, override);
    expect(got === null ? null : got.map((t) => [t.lotId, t.quantity])).toEqual(want);
  });
  it('an override marks what it took from the expired lot', () => {
    expect(chooseLots(lots, 66, TODAY, true)!.at(-1)).toEqual({ lotId: 3, quantity: 1, expired: true });
  });
  it('the expiry day itself is usable; a tie goes to the older lot', () => {
    const tie: LotStock[] = [
      { id: 9, expiry_date: TODAY, remaining: 2 },
      { id: 8, expiry_date: TODAY, remaining: 2 },
    ];
    expect(chooseLots(tie, 3, TODAY)!.map((t) => [t.lotId, t.quantity])).toEqual([
      [8, 2],
      [9, 1],
    ]);
  });
  it('waste takes the expired lot first', () => {
    expect(chooseLotsForRemoval(lots, 25, TODAY)!.map((t) => [t.lotId, t.quantity])).toEqual([
      [3, 20],
      [2, 5],
    ]);
  });
});

describe('days of stock and reorder advice', () => {
  it.each([
    [100, 0, null],
    [100, 10, 10],
    [95, 10, 9],
    [0, 2, 0],
  ] as const)('usable %i at %i a day -> %s days', (usable, rate, want) => {
    expect(daysOfStock(usable, rate)).toBe(want);
  });
  it('orders by the day the minimum is reached less the lead time, enough to fill up plus the lead time', () => {
    // 60 usable, minimum 20, 4 a day: 10 days to the minimum; lead time 7 -> order in 3 days.
    expect(reorderAdvice({ usable: 60, minimum: 20, maximum: 100 }, 4, 7, TODAY)).toEqual({
      quantity: 100 - 60 + 28,
      order_by: '2026-06-18',
    });
    // Far from the minimum: nothing due yet.
    expect(reorderAdvice({ usable: 500, minimum: 20, maximum: 1000 }, 4, 7, TODAY)).toBeNull();
    // At the minimum with no use recorded: order now, up to the maximum.
    expect(reorderAdvice({ usable: 20, minimum: 20, maximum: 100 }, 0, 7, TODAY)).toEqual({
      quantity: 80,
      order_by: TODAY,
    });
    // Unused and well stocked: nothing.
    expect(reorderAdvice({ usable: 90, minimum: 20, maximum: 100 }, 0, 7, TODAY)).toBeNull();
  });
});
