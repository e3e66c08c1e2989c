import { describe, expect, it } from 'vitest';
import { payerPriceOn, type PayerPriceEntry } from './payerPrice.js';

const entry = (id: number, price: number, from: string, to: string | null = null): PayerPriceEntry => ({
  id,
  item_type: 'test',
  item_id: 7,
  price,
  effective_from: from,
  effective_to: to,
});
const cbc = { item_type: 'test', item_id: 7, labPricePaise: 40000 };

describe('a payer’s price on a day (the OP Bill’s payer picker; the server’s rule)', () => {
  const list = [entry(1, 300, '2026-01-01', '2026-06-30'), entry(2, 320, '2026-07-01'), entry(3, 310, '2026-07-01')];
  it.each([
    ['2025-12-31', 36000, 'before any entry: the lab’s price less 10%'],
    ['2026-01-01', 30000, 'the first day of an entry'],
    ['2026-06-30', 30000, 'effective_to is inclusive'],
    ['2026-07-01', 31000, 'two entries from the same day: the later-added one'],
  ])('%s -> %i paise (%s)', (day, paise) => {
    expect(payerPriceOn(list, cbc, 10, day)).toBe(paise);
  });
  it('another item, or no list, falls back to the discount (rounded half up to the paisa)', () => {
    expect(payerPriceOn(list, { ...cbc, item_id: 8, labPricePaise: 33333 }, 12.5, '2026-07-01')).toBe(29166);
    expect(payerPriceOn([], cbc, 0, '2026-07-01')).toBe(40000);
  });
});
