import { describe, expect, it } from 'vitest';
import { choiceFilter, choiceOptions } from './usePagedList';

describe('a select filter over a fixed list of values', () => {
  it('offers "all" first under its own label, then each value named by the function given', () => {
    expect(choiceOptions('All Statuses', ['in_stock', 'low_stock'] as const, (v) => v.toUpperCase())).toEqual([
      { value: 'all', label: 'All Statuses' },
      { value: 'in_stock', label: 'IN_STOCK' },
      { value: 'low_stock', label: 'LOW_STOCK' },
    ]);
  });

  it("names the values from the feature's label table", () => {
    const labels = { draft: 'Draft', pending: 'Pending payment' } as const;
    expect(choiceFilter('status', 'Status', 'All Statuses', ['pending', 'draft'] as const, labels)).toEqual({
      key: 'status',
      label: 'Status',
      options: [
        { value: 'all', label: 'All Statuses' },
        { value: 'pending', label: 'Pending payment' },
        { value: 'draft', label: 'Draft' },
      ],
    });
  });
});
