import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CataloguePackage, CatalogueProfile, CatalogueTest } from '@shared/schemas/catalogue';
import { packagesApi, profilesApi, testsApi, type CatalogueItemType as ItemKind } from '@shared/api/catalogue';
import { call } from './api';

/** GET /api/tests|test-profiles|test-packages filters; "all" and empty values stay out of the URL. */
export interface CatalogueFilters {
  search?: string;
  category?: string;
  status?: string;
}

export const catalogueKeys = {
  all: ['catalogue'] as const,
  list: (kind: ItemKind, f: CatalogueFilters) => ['catalogue', kind, 'list', f] as const,
  history: (kind: ItemKind, id: number) => ['catalogue', kind, 'history', id] as const,
};

function toQuery(f: CatalogueFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.search?.trim()) out.search = f.search.trim();
  if (f.category && f.category !== 'all') out.category = f.category;
  if (f.status && f.status !== 'all') out.status = f.status;
  return out;
}

export interface ItemOf {
  test: CatalogueTest;
  profile: CatalogueProfile;
  package: CataloguePackage;
}

/** The list responses name their array after the kind: {tests}, {profiles}, {packages}. */
const LIST_FIELD = { test: 'tests', profile: 'profiles', package: 'packages' } as const;

/** Each kind's routes; the three share one shape (src/shared/api/catalogue.ts), typed here as tests'. */
export const CONTRACTS = { test: testsApi, profile: profilesApi, package: packagesApi } as unknown as Record<
  ItemKind,
  typeof testsApi
>;

function fetchList<K extends ItemKind>(kind: K, f: CatalogueFilters): Promise<ItemOf[K][]> {
  const field = LIST_FIELD[kind];
  return call(CONTRACTS[kind].list, { query: toQuery(f) }).then(
    (r) => (r as unknown as Record<typeof field, ItemOf[K][]>)[field],
  );
}

/** The whole catalogue of a kind is small (hundreds at most), so lists are not paged. */
export function useCatalogueList<K extends ItemKind>(
  kind: K,
  f: CatalogueFilters = {},
  opts: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: catalogueKeys.list(kind, f),
    queryFn: () => fetchList(kind, f),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
