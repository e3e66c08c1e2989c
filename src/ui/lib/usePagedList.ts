import { useCallback, useMemo } from 'react';
import { useUrlState } from './useUrlState';

/** A select filter of a list screen: its URL key and the values it offers ("all" = not filtered). */
export interface ListFilter {
  key: string;
  label: string;
  options: readonly { value: string; label: string }[];
  /** The value meaning "no filter"; 'all' unless said. */
  all?: string;
  /** The options load later (e.g. the users list): any value in the URL is kept, not reset. */
  open?: boolean;
}

/** How a filter names its values: a function (humanize, methodLabel) or the feature's label table. */
export type ValueLabels<V extends string> = ((value: V) => string) | Readonly<Record<V, string>>;

/** A select's options: "all" (not filtered) under its own label, then each value with its label. */
export function choiceOptions<V extends string>(allLabel: string, values: readonly V[], labels: ValueLabels<V>) {
  const labelOf = typeof labels === 'function' ? labels : (v: V) => labels[v];
  return [{ value: 'all', label: allLabel }, ...values.map((v) => ({ value: v as string, label: labelOf(v) }))];
}

/**
 * The usual select filter of a list screen: one of a fixed list of values, or all of them.
 * `choiceFilter('status', 'Status', 'All Statuses', INVOICE_STATUSES, INVOICE_STATUS_LABELS)`.
 */
export function choiceFilter<V extends string>(
  key: string,
  label: string,
  allLabel: string,
  values: readonly V[],
  labels: ValueLabels<V>,
): ListFilter {
  return { key, label, options: choiceOptions(allLabel, values, labels) };
}

export interface PagedListOptions {
  filters?: readonly ListFilter[];
  pageSizes: readonly number[];
  defaultLimit: number;
  /** Extra URL state the screen keeps beside search, filters and paging (e.g. a date). */
  extra?: Record<string, string | number>;
  /** Extra keys that count as filters (Clear shows, the filtered empty text) when set. */
  extraFilters?: readonly string[];
}

/**
 * The state of a list screen, kept in the address bar (bookmarkable, Back returns to it): search
 * text, select filters, page and page size. A filter value the screen does not offer, a page size
 * it does not offer or a page below 1 (from a stale or hand-typed URL) fall back to the defaults;
 * a page past the end is clamped by ListTable once the total is known.
 */
export function usePagedList(opts: PagedListOptions) {
  const { filters = [], pageSizes, defaultLimit, extra = {}, extraFilters = [] } = opts;
  const defaults = useMemo(() => {
    const d: Record<string, string | number> = { search: '', page: 1, limit: defaultLimit, ...extra };
    for (const f of filters) d[f.key] = f.all ?? 'all';
    return d;
  }, [filters, defaultLimit, extra]);
  const [q, setTyped, , isActive] = useUrlState(defaults);
  // The keys are the screen's own (filters, extra), so the patch is typed by key name only.
  const setQ = setTyped as (patch: Record<string, string | number>, opts?: { replace?: boolean }) => void;

  const values: Record<string, string> = {};
  for (const f of filters) {
    const raw = String(q[f.key]);
    const all = f.all ?? 'all';
    values[f.key] = raw === all || f.open || f.options.some((o) => o.value === raw) ? raw : all;
  }
  const limit = pageSizes.includes(Number(q.limit)) ? Number(q.limit) : defaultLimit;
  const page = Math.max(1, Math.trunc(Number(q.page)) || 1);
  const search = String(q.search);
  const filtersActive = isActive('search', ...filters.map((f) => f.key), ...extraFilters);

  const setSearch = useCallback((s: string) => setQ({ search: s, page: 1 }, { replace: true }), [setQ]);
  const setFilter = useCallback((key: string, value: string) => setQ({ [key]: value, page: 1 }), [setQ]);
  const setPage = useCallback((p: number, replace = false) => setQ({ page: p }, { replace }), [setQ]);
  const setLimit = useCallback((size: number) => setQ({ limit: size, page: 1 }), [setQ]);
  /** Clear: search, filters and extra filters back to their defaults, page 1; other extra state (a selection, a tab) stays. */
  const clear = useCallback(() => {
    const patch: Record<string, string | number> = { search: '', page: 1 };
    for (const f of filters) patch[f.key] = f.all ?? 'all';
    for (const k of extraFilters) patch[k] = defaults[k] ?? '';
    setQ(patch);
  }, [filters, extraFilters, defaults, setQ]);

  /** The filters as the API wants them: "all" (no filter) left out. */
  const apiFilters: Record<string, string> = {};
  for (const f of filters) if (values[f.key] !== (f.all ?? 'all')) apiFilters[f.key] = values[f.key]!;

  return {
    search,
    page,
    limit,
    /** Each filter's current value ("all" when not filtered). */
    values,
    apiFilters,
    filters,
    pageSizes,
    filtersActive,
    /** Raw URL state, for the screen's extra keys. */
    state: q,
    setState: setQ,
    setSearch,
    setFilter,
    setPage,
    setLimit,
    reset: clear,
  };
}

export type PagedList = ReturnType<typeof usePagedList>;
