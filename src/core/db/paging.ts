import type { SelectQueryBuilder } from 'kysely';

/** One page of a list as a repository answers it: the page's rows, and how many rows match in all. */
export interface RowsPage<R> {
  rows: R[];
  total: number;
}

/** Narrows a list's query to one page (`page` counted from 1, `limit` rows a page), for `$call`. */
export function onPage(p: { page: number; limit: number }) {
  return <DB, TB extends keyof DB, O>(q: SelectQueryBuilder<DB, TB, O>) =>
    q.limit(p.limit).offset((p.page - 1) * p.limit);
}
