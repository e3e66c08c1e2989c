import { z } from 'zod';
import { idParam } from '../schemas/common.js';
import {
  alertListQuery,
  alertPageSchema,
  alertSettingsSchema,
  alertSettingsUpdateSchema,
  alertSummarySchema,
  alertUpdateSchema,
  inventoryCreateSchema,
  inventoryItemSchema,
  inventoryListQuery,
  inventoryPageSchema,
  inventorySummaryQuery,
  inventorySummarySchema,
  inventoryUpdateSchema,
  lotSchema,
  movementCreateSchema,
  movementListQuery,
  movementPageSchema,
  movementSchema,
  stockAlertSchema,
  supplierCreateSchema,
  supplierSchema,
  supplierUpdateSchema,
  usageSchema,
  usageUpdateSchema,
} from '../schemas/inventory.js';
import { defineRoute } from './contract.js';

const oneItem = z.object({ item: inventoryItemSchema });
const oneSupplier = z.object({ supplier: supplierSchema });
const oneAlert = z.object({ alert: stockAlertSchema });
const usage = z.object({ usage: z.array(usageSchema) });

/**
 * Inventory Management (spec 001, "List/Get/Create/Update/Delete inventory item"), its ledger,
 * consumption per test, suppliers and stock alerts. Reading needs view_inventory;
 * changing stock, items, suppliers and alerts needs manage_inventory. Technicians consume through
 * result entry (update_results), never here.
 */
export const inventoryApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/inventory',
    access: 'view_inventory',
    query: inventoryListQuery,
    response: inventoryPageSchema,
  }),
  /** The cards (Total Items, Low Stock, Active Items, Total Value, ...), of one kind or all. */
  summary: defineRoute({
    method: 'GET',
    path: '/api/inventory/summary',
    access: 'view_inventory',
    query: inventorySummaryQuery,
    response: z.object({ summary: inventorySummarySchema }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/inventory/:id',
    access: 'view_inventory',
    params: idParam,
    response: oneItem,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/inventory',
    access: 'manage_inventory',
    body: inventoryCreateSchema,
    response: oneItem,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/inventory/:id',
    access: 'manage_inventory',
    params: idParam,
    body: inventoryUpdateSchema,
    response: oneItem,
  }),
  /** Erases an item without a ledger; one with movements is archived (404 from then on, ledger kept). */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/inventory/:id',
    access: 'manage_inventory',
    params: idParam,
    response: oneItem,
  }),
  lots: defineRoute({
    method: 'GET',
    path: '/api/inventory/:id/lots',
    access: 'view_inventory',
    params: idParam,
    response: z.object({ lots: z.array(lotSchema) }),
  }),
  movements: defineRoute({
    method: 'GET',
    path: '/api/inventory/:id/movements',
    access: 'view_inventory',
    params: idParam,
    query: movementListQuery,
    response: movementPageSchema,
  }),
  /** Receive, consume, adjust, waste or return: the only way stock changes. 409 below zero or from an expired lot. */
  move: defineRoute({
    method: 'POST',
    path: '/api/inventory/:id/movements',
    access: 'manage_inventory',
    params: idParam,
    body: movementCreateSchema,
    response: z.object({ movements: z.array(movementSchema), item: inventoryItemSchema }),
    status: 201,
  }),
  /** The tests that use the item, and how many units one run takes. */
  usage: defineRoute({
    method: 'GET',
    path: '/api/inventory/:id/usage',
    access: 'view_inventory',
    params: idParam,
    response: usage,
  }),
  setUsage: defineRoute({
    method: 'PUT',
    path: '/api/inventory/:id/usage',
    access: 'manage_inventory',
    params: idParam,
    body: usageUpdateSchema,
    response: usage,
  }),
};

export const suppliersApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/suppliers',
    access: 'view_inventory',
    response: z.object({ suppliers: z.array(supplierSchema) }),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/suppliers/:id',
    access: 'view_inventory',
    params: idParam,
    response: oneSupplier,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/suppliers',
    access: 'manage_inventory',
    body: supplierCreateSchema,
    response: oneSupplier,
    status: 201,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/suppliers/:id',
    access: 'manage_inventory',
    params: idParam,
    body: supplierUpdateSchema,
    response: oneSupplier,
  }),
  /** Erases a supplier nothing names; 409 once an item, lot or receipt names it. */
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/suppliers/:id',
    access: 'manage_inventory',
    params: idParam,
    response: oneSupplier,
  }),
};

export const stockAlertsApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/stock-alerts',
    access: 'view_inventory',
    query: alertListQuery,
    response: alertPageSchema,
  }),
  summary: defineRoute({
    method: 'GET',
    path: '/api/stock-alerts/summary',
    access: 'view_inventory',
    response: z.object({ summary: alertSummarySchema }),
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/api/stock-alerts/settings',
    access: 'view_inventory',
    response: z.object({ settings: alertSettingsSchema }),
  }),
  updateSettings: defineRoute({
    method: 'PUT',
    path: '/api/stock-alerts/settings',
    access: 'manage_inventory',
    body: alertSettingsUpdateSchema,
    response: z.object({ settings: alertSettingsSchema }),
  }),
  /** Acknowledge (status acknowledged, or back to active) and keep a note; resolving is the server's. */
  update: defineRoute({
    method: 'PUT',
    path: '/api/stock-alerts/:id',
    access: 'manage_inventory',
    params: idParam,
    body: alertUpdateSchema,
    response: oneAlert,
  }),
};
