import { describe, expect, it } from 'vitest';
import { choiceFilter, choiceOptions, loadedChoiceFilter } from './usePagedList';

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

describe('a select filter whose values come from the server', () => {
  it('is open (a value in the URL survives the load) and names each value as itself', () => {
    expect(loadedChoiceFilter('category', 'Category', 'All Categories', ['Reagents', 'Glassware'])).toEqual({
      key: 'category',
      label: 'Category',
      open: true,
      options: [
        { value: 'all', label: 'All Categories' },
        { value: 'Reagents', label: 'Reagents' },
        { value: 'Glassware', label: 'Glassware' },
      ],
    });
  });

  it('offers "all" alone until the values have loaded', () => {
    expect(loadedChoiceFilter('location', 'Location', 'All Locations', undefined).options).toEqual([
      { value: 'all', label: 'All Locations' },
    ]);
  });
});
