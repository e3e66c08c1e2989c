import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { inventoryApi, stockAlertsApi, suppliersApi } from '@shared/api/inventory';
import type {
  AlertSettings,
  InventoryCreateInput,
  InventoryItem,
  InventoryUpdateInput,
  MovementCreateInput,
  StockAlert,
  Supplier,
  SupplierCreateInput,
  SupplierUpdate,
} from '@shared/schemas/inventory';
import type { ItemKind } from '@shared/inventory';
import { call } from '@/lib/api';
import { notify } from '@/lib/notify';

/** Query keys of Inventory. Every change refreshes the whole feature: stock, alerts and suppliers move together. */
export const inventoryKeys = {
  all: ['inventory'] as const,
  list: (q: InventoryQuery) => ['inventory', 'list', q] as const,
  summary: (kind?: ItemKind) => ['inventory', 'summary', kind ?? 'all'] as const,
  item: (id: number) => ['inventory', 'item', id] as const,
  lots: (id: number) => ['inventory', 'lots', id] as const,
  movements: (id: number, page: number) => ['inventory', 'movements', id, page] as const,
  usage: (id: number) => ['inventory', 'usage', id] as const,
  suppliers: ['inventory', 'suppliers'] as const,
  alerts: (q: AlertQuery) => ['inventory', 'alerts', q] as const,
  alertSummary: ['inventory', 'alerts', 'summary'] as const,
  alertSettings: ['inventory', 'alerts', 'settings'] as const,
};

export interface InventoryQuery {
  search?: string;
  category?: string;
  status?: string;
  stock_status?: string;
  kind?: ItemKind;
  page: number;
  limit: number;
}

export function useInventoryPage(q: InventoryQuery) {
  return useQuery({
    queryKey: inventoryKeys.list(q),
    queryFn: ({ signal }) =>
      call(
        inventoryApi.list,
        {
          query: {
            search: q.search || undefined,
            category: q.category,
            status: q.status as InventoryItem['status'] | undefined,
            stock_status: q.stock_status as InventoryItem['stock_status'] | undefined,
            kind: q.kind,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useInventorySummary(kind?: ItemKind) {
  return useQuery({
    queryKey: inventoryKeys.summary(kind),
    queryFn: ({ signal }) => call(inventoryApi.summary, { query: { kind } }, signal).then((r) => r.summary),
  });
}

/**
 * One item as the server has it now: a dialog opened from a list row shows the row until this
 * answers, then follows every movement (the feature's invalidation refetches it).
 */
export function useItem(row: InventoryItem | null) {
  return useQuery({
    queryKey: inventoryKeys.item(row?.id ?? 0),
    queryFn: ({ signal }) => call(inventoryApi.get, { params: { id: row!.id } }, signal).then((r) => r.item),
    enabled: row !== null,
    placeholderData: row ?? undefined,
  });
}

export function useLots(id: number | null) {
  return useQuery({
    queryKey: inventoryKeys.lots(id ?? 0),
    queryFn: ({ signal }) => call(inventoryApi.lots, { params: { id: id! } }, signal).then((r) => r.lots),
    enabled: id !== null,
  });
}

export function useMovements(id: number | null, page: number) {
  return useQuery({
    queryKey: inventoryKeys.movements(id ?? 0, page),
    queryFn: ({ signal }) => call(inventoryApi.movements, { params: { id: id! }, query: { page, limit: 20 } }, signal),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });
}

export function useUsage(id: number | null) {
  return useQuery({
    queryKey: inventoryKeys.usage(id ?? 0),
    queryFn: ({ signal }) => call(inventoryApi.usage, { params: { id: id! } }, signal).then((r) => r.usage),
    enabled: id !== null,
  });
}

export function useSuppliers(enabled = true) {
  return useQuery({
    queryKey: inventoryKeys.suppliers,
    queryFn: ({ signal }) => call(suppliersApi.list, {}, signal).then((r) => r.suppliers),
    enabled,
  });
}

export interface AlertQuery {
  search?: string;
  status?: string;
  priority?: string;
  alert_type?: string;
  page: number;
  limit: number;
}

export function useAlertPage(q: AlertQuery) {
  return useQuery({
    queryKey: inventoryKeys.alerts(q),
    queryFn: ({ signal }) =>
      call(
        stockAlertsApi.list,
        {
          query: {
            search: q.search || undefined,
            status: q.status as StockAlert['status'] | undefined,
            priority: q.priority as StockAlert['priority'] | undefined,
            alert_type: q.alert_type as StockAlert['alert_type'] | undefined,
            page: q.page,
            limit: q.limit,
          },
        },
        signal,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useCriticalAlerts() {
  return useQuery({
    queryKey: inventoryKeys.alerts({ priority: 'critical', status: 'open', page: 1, limit: 10 }),
    queryFn: ({ signal }) =>
      call(stockAlertsApi.list, { query: { priority: 'critical', open: 'true', page: 1, limit: 10 } }, signal),
  });
}

export function useAlertSummary() {
  return useQuery({
    queryKey: inventoryKeys.alertSummary,
    queryFn: ({ signal }) => call(stockAlertsApi.summary, {}, signal).then((r) => r.summary),
  });
}

export function useAlertSettings() {
  return useQuery({
    queryKey: inventoryKeys.alertSettings,
    queryFn: ({ signal }) => call(stockAlertsApi.settings, {}, signal).then((r) => r.settings),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: inventoryKeys.all }),
      qc.invalidateQueries({ queryKey: ['notifications'] }),
      qc.invalidateQueries({ queryKey: ['audit'] }),
    ]);
}

export function useCreateItemMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: InventoryCreateInput) => call(inventoryApi.create, { body: input }).then((r) => r.item),
    onSuccess: (i) => {
      notify.success('Inventory item created', i.item_name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to save inventory item', err),
  });
}

export function useUpdateItemMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: InventoryUpdateInput }) =>
      call(inventoryApi.update, { params: { id }, body: patch }).then((r) => r.item),
    onSuccess: (i) => {
      notify.success('Inventory item updated', i.item_name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to save inventory item', err),
  });
}

export function useDeleteItemMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (item: InventoryItem) => call(inventoryApi.remove, { params: { id: item.id } }).then((r) => r.item),
    onSuccess: (i) => {
      notify.success('Inventory item deleted', i.item_name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete inventory item', err),
  });
}

const MOVED: Record<MovementCreateInput['type'], string> = {
  receive: 'Stock received',
  consume: 'Stock consumed',
  adjust: 'Stock adjusted',
  waste: 'Waste recorded',
  return: 'Stock returned',
};

export function useMovementMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: MovementCreateInput }) =>
      call(inventoryApi.move, { params: { id }, body }),
    onSuccess: (r, v) => {
      notify.success(MOVED[v.body.type], `${r.item.item_name}: ${r.item.current_stock} ${r.item.unit} on hand`);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to record the movement', err),
  });
}

export function useSetUsageMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, usage }: { id: number; usage: { test_id: number; quantity: number }[] }) =>
      call(inventoryApi.setUsage, { params: { id }, body: { usage } }).then((r) => r.usage),
    onSuccess: () => {
      notify.success('Tests updated', 'Result entry now consumes this item for the tests listed.');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to save the tests', err),
  });
}

export function useSaveSupplierMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: SupplierCreateInput | SupplierUpdate }) =>
      id === null
        ? call(suppliersApi.create, { body: body as SupplierCreateInput }).then((r) => r.supplier)
        : call(suppliersApi.update, { params: { id }, body }).then((r) => r.supplier),
    onSuccess: (s: Supplier, v) => {
      notify.success(v.id === null ? 'Supplier added' : 'Supplier updated', s.name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to save supplier', err),
  });
}

export function useDeleteSupplierMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (s: Supplier) => call(suppliersApi.remove, { params: { id: s.id } }).then((r) => r.supplier),
    onSuccess: (s) => {
      notify.success('Supplier deleted', s.name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to delete supplier', err),
  });
}

export function useAlertMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, status, note }: { id: number; status?: 'acknowledged' | 'active'; note?: string | null }) =>
      call(stockAlertsApi.update, { params: { id }, body: { status, note } }).then((r) => r.alert),
    onSuccess: (a) => {
      notify.success(a.status === 'acknowledged' ? 'Alert acknowledged' : 'Alert updated', a.item_name);
      return invalidate();
    },
    onError: (err) => notify.error('Failed to update the alert', err),
  });
}

export function useAlertSettingsMutation() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: Partial<AlertSettings>) => call(stockAlertsApi.updateSettings, { body }).then((r) => r.settings),
    onSuccess: () => {
      notify.success('Alert settings saved', 'Every item’s alerts were checked again with the new settings.');
      return invalidate();
    },
    onError: (err) => notify.error('Failed to save alert settings', err),
  });
}
