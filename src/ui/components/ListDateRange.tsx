import type { PagedList } from '@/lib/usePagedList';
import { DateRangeFields, rangeIsBackwards } from './DateRangeFields';

/**
 * The From and To days of a list screen live in its URL with the other filters:
 * `usePagedList({ extra: LIST_DATE_RANGE, extraFilters: LIST_DATE_RANGE_KEYS })`, so Clear empties
 * them and a filtered view can be bookmarked.
 */
export const LIST_DATE_RANGE = { from: '', to: '' };
export const LIST_DATE_RANGE_KEYS = ['from', 'to'];

export interface ListDateRange {
  /** yyyy-mm-dd, or '' for open. */
  from: string;
  to: string;
  /** From is after To: the list is not asked for... */
  backwards: boolean;
  /** ...and the table says why (ListTable's `invalid`). */
  invalid: string | undefined;
}

/** The date range a list's URL holds. */
export function listDateRange(list: PagedList): ListDateRange {
  const from = String(list.state.from);
  const to = String(list.state.to);
  const backwards = rangeIsBackwards(from, to);
  return { from, to, backwards, invalid: backwards ? 'The From date is after the To date.' : undefined };
}

/** The list's From and To fields for its filter row; a new range starts again at page 1. */
export function ListDateRangeFields({ list }: { list: PagedList }) {
  const { from, to } = listDateRange(list);
  return <DateRangeFields from={from} to={to} onChange={(range) => list.setState({ ...range, page: 1 })} />;
}
