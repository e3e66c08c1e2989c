import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CataloguePackage,
  CatalogueProfile,
  CatalogueTest,
  PackageCreate,
  ProfileCreate,
  TestCreate,
} from '@shared/schemas/catalogue';
import { packagesApi, pricingApi, profilesApi, testsApi } from '@shared/api/catalogue';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';
import { KINDS, type ItemKind } from './kinds';

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

export interface BodyOf {
  test: TestCreate;
  profile: ProfileCreate;
  package: PackageCreate;
}

/** The list responses name their array after the kind: {tests}, {profiles}, {packages}. */
const LIST_FIELD = { test: 'tests', profile: 'profiles', package: 'packages' } as const;

/** Each kind's routes; the three share one shape (src/shared/api/catalogue.ts), typed here as tests'. */
const CONTRACTS = { test: testsApi, profile: profilesApi, package: packagesApi } as unknown as Record<
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

export function usePriceHistory(kind: ItemKind, id: number | null) {
  return useQuery({
    queryKey: catalogueKeys.history(kind, id ?? 0),
    queryFn: () => call(pricingApi.history, { params: { type: kind, id: id ?? 0 } }).then((r) => r.history),
    enabled: id !== null,
  });
}

function useInvalidateCatalogue() {
  const qc = useQueryClient();
  // Names of tests show inside profiles and packages, so every catalogue list is refreshed.
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: catalogueKeys.all }),
      qc.invalidateQueries({ queryKey: shellKeys.dashboardStats }),
      qc.invalidateQueries({ queryKey: ['audit'] }),
    ]);
}

const SINGLE_FIELD = { test: 'test', profile: 'profile', package: 'package' } as const;

/**
 * Create or update (id set) a test, profile or package. Failures are toasted by the caller's
 * dialog after it has put the server's field messages under the fields.
 */
export function useSaveItemMutation<K extends ItemKind>(kind: K) {
  const invalidate = useInvalidateCatalogue();
  const k = KINDS[kind];
  const c = CONTRACTS[kind];
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: BodyOf[K] }) => {
      const field = SINGLE_FIELD[kind];
      const req =
        id === null
          ? call(c.create, { body: body as TestCreate })
          : call(c.update, { params: { id }, body: body as TestCreate });
      return req.then((r) => (r as unknown as Record<typeof field, ItemOf[K]>)[field]);
    },
    onSuccess: (item, { id }) => {
      notify.success(`${k.label} ${id === null ? 'created' : 'updated'} successfully`, item.name);
      return invalidate();
    },
    onError: (err, { id }) =>
      notify.error(`Failed to ${id === null ? 'create' : 'update'} ${k.label.toLowerCase()}`, err),
  });
}

/** Deactivate / Activate: an edit of the status alone. */
export function useSetStatusMutation(kind: ItemKind) {
  const invalidate = useInvalidateCatalogue();
  const k = KINDS[kind];
  return useMutation({
    mutationFn: ({ id, status }: { id: number; name: string; status: 'active' | 'inactive' }) =>
      call(CONTRACTS[kind].update, { params: { id }, body: { status } }),
    onSuccess: (_r, { name, status }) => {
      notify.success(`${k.label} ${status === 'active' ? 'activated' : 'deactivated'}`, name);
      return invalidate();
    },
    onError: (err) => notify.error(`Failed to update ${k.label.toLowerCase()}`, err),
  });
}

/** Toasts are the spec's (8): "... deleted" and "Failed to delete test package" with the server's reason (in use). */
export function useDeleteItemMutation(kind: ItemKind) {
  const invalidate = useInvalidateCatalogue();
  const k = KINDS[kind];
  return useMutation({
    mutationFn: ({ id }: { id: number; name: string }) => call(CONTRACTS[kind].remove, { params: { id } }),
    onSuccess: (_r, { name }) => {
      notify.success(`${k.label} deleted successfully`, name);
      return invalidate();
    },
    onError: (err) => notify.error(k.deleteFailed, err),
  });
}

/** Test Pricing: PUT /api/pricing/:type/:id; the server keeps the change in the price history. */
export function useUpdatePriceMutation() {
  const invalidate = useInvalidateCatalogue();
  return useMutation({
    mutationFn: ({
      kind,
      id,
      price,
      base_price,
    }: {
      kind: ItemKind;
      id: number;
      name: string;
      price: number;
      base_price: number;
    }) => call(pricingApi.update, { params: { type: kind, id }, body: { price, base_price } }),
    onSuccess: (_r, { name }) => {
      notify.success('Price updated successfully', name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to update price', err),
  });
}
