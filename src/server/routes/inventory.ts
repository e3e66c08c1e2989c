import type { FastifyInstance } from 'fastify';
import { inventoryApi, stockAlertsApi, suppliersApi } from '../../shared/api/inventory.js';
import {
  createInventoryItem,
  deleteInventoryItem,
  getInventoryItem,
  inventorySummary,
  itemUsage,
  listInventory,
  listLots,
  listMovements,
  postMovement,
  setItemUsage,
  updateInventoryItem,
} from '../../core/inventory/service.js';
import {
  createSupplier,
  deleteSupplier,
  getSupplier,
  listSuppliers,
  updateSupplier,
} from '../../core/inventory/suppliers.js';
import {
  alertSettingsOf,
  alertSummary,
  listAlerts,
  updateAlert,
  updateAlertSettings,
} from '../../core/inventory/alerts.js';
import { actorOf } from '../plugins/auth.js';
import { route } from '../contract.js';

export default async function inventoryRoutes(app: FastifyInstance) {
  const db = app.database.db;
  const org = (req: Parameters<typeof actorOf>[0]) => actorOf(req).organizationId;

  route(app, inventoryApi.list, async (req) => listInventory(db, org(req), req.query));
  route(app, inventoryApi.summary, async (req) => ({
    summary: await inventorySummary(db, actorOf(req), req.query.kind),
  }));
  route(app, inventoryApi.get, async (req) => ({ item: await getInventoryItem(db, org(req), req.params.id) }));
  route(app, inventoryApi.create, async (req) => ({ item: await createInventoryItem(db, actorOf(req), req.body) }));
  route(app, inventoryApi.update, async (req) => ({
    item: await updateInventoryItem(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, inventoryApi.remove, async (req) => ({
    item: await deleteInventoryItem(db, actorOf(req), req.params.id),
  }));
  route(app, inventoryApi.lots, async (req) => ({ lots: await listLots(db, org(req), req.params.id) }));
  route(app, inventoryApi.movements, async (req) => listMovements(db, org(req), req.params.id, req.query));
  route(app, inventoryApi.move, async (req) => postMovement(db, actorOf(req), req.params.id, req.body));
  route(app, inventoryApi.usage, async (req) => ({ usage: await itemUsage(db, org(req), req.params.id) }));
  route(app, inventoryApi.setUsage, async (req) => ({
    usage: await setItemUsage(db, actorOf(req), req.params.id, req.body),
  }));

  route(app, suppliersApi.list, async (req) => ({ suppliers: await listSuppliers(db, org(req)) }));
  route(app, suppliersApi.get, async (req) => ({ supplier: await getSupplier(db, org(req), req.params.id) }));
  route(app, suppliersApi.create, async (req) => ({ supplier: await createSupplier(db, actorOf(req), req.body) }));
  route(app, suppliersApi.update, async (req) => ({
    supplier: await updateSupplier(db, actorOf(req), req.params.id, req.body),
  }));
  route(app, suppliersApi.remove, async (req) => ({ supplier: await deleteSupplier(db, actorOf(req), req.params.id) }));

  route(app, stockAlertsApi.list, async (req) => listAlerts(db, actorOf(req), req.query));
  route(app, stockAlertsApi.summary, async (req) => ({ summary: await alertSummary(db, actorOf(req)) }));
  route(app, stockAlertsApi.settings, async (req) => ({ settings: await alertSettingsOf(db, org(req)) }));
  route(app, stockAlertsApi.updateSettings, async (req) => ({
    settings: await updateAlertSettings(db, actorOf(req), req.body),
  }));
  route(app, stockAlertsApi.update, async (req) => ({
    alert: await updateAlert(db, actorOf(req), req.params.id, req.body),
  }));
}
