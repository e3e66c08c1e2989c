import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PackageCreate, ProfileCreate, TestCreate } from '@shared/schemas/catalogue';
import { pricingApi } from '@shared/api/catalogue';
import { CONTRACTS, catalogueKeys, type ItemOf } from '@/lib/catalogue';

export { catalogueKeys, useCatalogueList, type CatalogueFilters, type ItemOf } from '@/lib/catalogue';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';
import { shellKeys } from '@/lib/session';
import { KINDS, type ItemKind } from './kinds';

export interface BodyOf {
  test: TestCreate;
  profile: ProfileCreate;
  package: PackageCreate;
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
