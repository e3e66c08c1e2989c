import type { Db } from '../db/connection.js';
import { nowIso, type Actor } from '../context.js';
import { auditLabSettings, writeAudit } from '../audit/audit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { getOrganization } from '../settings/service.js';
import { notify } from '../notifications/service.js';
import {
  addDays,
  DEFAULT_LAB_FORMAT,
  formatLabDate,
  localDate,
  startOfLocalDayUtc,
  type LabDateFormat,
} from '../../shared/time.js';
import { pageEnvelope } from '../../shared/schemas/common.js';
import {
  ALERT_TYPES,
  type AlertPriority,
  type AlertType,
  DEFAULT_APPROACHING_MARGIN_PERCENT,
  DEFAULT_EXPIRY_WARNING_DAYS,
  RATE_WINDOW_DAYS,
  alertConditions,
} from '../../shared/inventory.js';
import type {
  AlertListQuery,
  AlertPage,
  AlertSettings,
  AlertSummary,
  AlertUpdate,
  StockAlert,
} from '../../shared/schemas/inventory.js';
import {
  alertCounts,
  alertTimesSince,
  findAlertFull,
  findAlertSettings,
  insertAlert,
  openAlertsOf,
  openByType,
  saveAlertSettings,
  selectAlertPage,
  updateAlertRow,
} from './alert-repository.js';
import { allItems, countMovements, findItemFull, type ItemFullRow } from './repository.js';
import { figuresOf, toAlert, type InventoryDay } from './mappers.js';

/**
 * Stock alerts: raised and resolved by the server from the items' real stock and dates, never typed
 * in. After every movement or item change the item is evaluated in the same transaction; the
 * date-driven ones (expiry) are brought up to date once per lab day, on the first read of that day
 * (and whenever the settings change). A high or critical alert raised (low stock, out of stock,
 * expired) tells the inventory staff through the bell.
 */

export async function alertSettingsOf(db: Db, organizationId: number): Promise<AlertSettings> {
  const row = await findAlertSettings(db, organizationId);
  return {
    expiry_warning_days: row ? Number(row.expiry_warning_days) : DEFAULT_EXPIRY_WARNING_DAYS,
    approaching_margin_percent: row ? Number(row.approaching_margin_percent) : DEFAULT_APPROACHING_MARGIN_PERCENT,
  };
}

/** The lab's day (its time zone), the consumption window and the alert settings. */
export async function inventoryDay(db: Db, organizationId: number, now: Date = new Date()): Promise<InventoryDay> {
  const org = await getOrganization(db, organizationId);
  const timeZone = org.timezone;
  const today = localDate(timeZone, now);
  const s = await alertSettingsOf(db, organizationId);
  return {
    today,
    timeZone,
    since: startOfLocalDayUtc(timeZone, addDays(today, -RATE_WINDOW_DAYS)).toISOString(),
    expiryWarningDays: s.expiry_warning_days,
    approachingMarginPercent: s.approaching_margin_percent,
    dateFormat: org.date_format as LabDateFormat,
  };
}

/**
 * Brings one item's alerts in line with its stock and dates (inside the caller's transaction):
 * raises what its conditions call for, refreshes what is still open, resolves what no longer holds.
 * An archived or inactive item has no open alerts.
 */
export async function evaluateItemAlerts(trx: Db, actor: Actor, itemId: number, day: InventoryDay): Promise<void> {
  const item = await findItemFull(trx, actor.organizationId, itemId, day.today, day.since);
  const open = await openAlertsOf(trx, itemId);
  // An item never stocked (no ledger yet) has nothing to warn of; an inactive or archived one neither.
  const stocked = item ? (await countMovements(trx, itemId)) > 0 : false;
  const wanted =
    item && stocked && item.status === 'active'
      ? alertConditions({ ...figuresOf(item), unit: item.unit }, day.today, {
          expiryWarningDays: day.expiryWarningDays,
          approachingMarginPercent: day.approachingMarginPercent,
          formatDay: (ymd) => formatLabDate(ymd, { ...DEFAULT_LAB_FORMAT, dateFormat: day.dateFormat }),
        })
      : [];
  const now = nowIso();
  const current = item ? Number(item.usable_stock) : 0;
  for (const a of open) {
    const still = wanted.find((w) => w.type === a.alert_type);
    if (!still) {
      // Approaching the minimum that became low stock (or low stock that ran out) is not over: it
      // goes on as the graver alert, and the one left behind says so beside its last figure.
      const graver = supersededBy(a.alert_type as AlertType, wanted);
      const note = graver
        ? [a.note, `Became ${graver === 'out_of_stock' ? 'out of stock' : 'low stock'}`].filter(Boolean).join(' · ')
        : a.note;
      await updateAlertRow(trx, a.id, { status: 'resolved', resolved_at: now, current_stock: current, note });
      await writeAudit(trx, actor, {
        action: 'update',
        entity: 'stock_alert',
        entityId: a.id,
        oldValues: { status: a.status },
        newValues: { status: 'resolved', current_stock: current, resolved_by: 'server', ...(graver ? { note } : {}) },
      });
      continue;
    }
    if (still.priority !== a.priority || still.message !== a.message || Number(a.current_stock) !== current) {
      await updateAlertRow(trx, a.id, {
        priority: still.priority,
        message: still.message,
        current_stock: current,
        last_alert_at: now,
      });
      // Escalated (an expiry warning once the lot has expired): told again.
      if (item && rank(still.priority) > rank(a.priority)) await announce(trx, actor, item, still);
    }
  }
  for (const w of wanted) {
    if (open.some((a) => a.alert_type === w.type)) continue;
    const row = await insertAlert(trx, {
      organization_id: actor.organizationId,
      item_id: itemId,
      alert_type: w.type,
      priority: w.priority,
      status: 'active',
      current_stock: current,
      message: w.message,
      note: null,
      created_at: now,
      last_alert_at: now,
      acknowledged_by: null,
      acknowledged_at: null,
      resolved_at: null,
    });
    await writeAudit(trx, actor, {
      action: 'create',
      entity: 'stock_alert',
      entityId: row.id,
      newValues: { item_id: itemId, alert_type: w.type, priority: w.priority, current_stock: current },
    });
    if (item) await announce(trx, actor, item, w);
  }
}

/** The stock-level alerts from mild to grave: a milder one ends when its item falls to a graver one. */
const STOCK_LEVELS: readonly AlertType[] = ['approaching_minimum', 'low_stock', 'out_of_stock'];

/** The graver stock-level alert now wanted that takes over from `type`, if any. */
function supersededBy(type: AlertType, wanted: readonly { type: AlertType }[]): AlertType | null {
  const from = STOCK_LEVELS.indexOf(type);
  if (from < 0) return null;
  const graver = wanted.find((w) => STOCK_LEVELS.indexOf(w.type) > from);
  return graver ? graver.type : null;
}

const PRIORITY_RANK: Record<AlertPriority, number> = { low: 0, medium: 1, high: 2, critical: 3 };
const rank = (p: string) => PRIORITY_RANK[p as AlertPriority] ?? 0;

/**
 * The alerts the store must act on (high: low stock; critical: out of stock, expired) ring the bell of
 * the inventory staff; the others (approaching the minimum, expiring soon, overstock) wait on the screen.
 */
async function announce(
  trx: Db,
  actor: Actor,
  item: ItemFullRow,
  w: { type: (typeof ALERT_TYPES)[number]; priority: AlertPriority; message: string },
): Promise<void> {
  if (w.priority !== 'high' && w.priority !== 'critical') return;
  await notify(
    trx,
    actor.organizationId,
    { kind: 'stock_alert', itemName: item.item_name, alertType: w.type, priority: w.priority, message: w.message },
    { by: null },
  );
}

/** Every live item of the lab evaluated (the day changed, or the settings did). */
async function evaluateAll(trx: Db, actor: Actor, day: InventoryDay): Promise<void> {
  const items = await allItems(trx, actor.organizationId, day.today, day.since);
  for (const i of items) await evaluateItemAlerts(trx, actor, i.id, day);
}

/** Once per lab day: the date-driven alerts (a lot that expired overnight) brought up to date. */
export async function sweepIfStale(db: Db, actor: Actor, now: Date = new Date()): Promise<void> {
  const day = await inventoryDay(db, actor.organizationId, now);
  const row = await findAlertSettings(db, actor.organizationId);
  if (row?.swept_on === day.today) return;
  await db.transaction().execute(async (trx) => {
    const again = await findAlertSettings(trx, actor.organizationId);
    if (again?.swept_on === day.today) return;
    await evaluateAll(trx, actor, day);
    await saveAlertSettings(trx, {
      organization_id: actor.organizationId,
      expiry_warning_days: day.expiryWarningDays,
      approaching_margin_percent: day.approachingMarginPercent,
      swept_on: day.today,
      updated_at: again?.updated_at ?? nowIso(),
    });
  });
}

export async function updateAlertSettings(db: Db, actor: Actor, input: Partial<AlertSettings>): Promise<AlertSettings> {
  await db.transaction().execute(async (trx) => {
    const before = await alertSettingsOf(trx, actor.organizationId);
    const after = { ...before, ...input };
    const day = await inventoryDay(trx, actor.organizationId);
    await saveAlertSettings(trx, {
      organization_id: actor.organizationId,
      expiry_warning_days: after.expiry_warning_days,
      approaching_margin_percent: after.approaching_margin_percent,
      swept_on: day.today,
      updated_at: nowIso(),
    });
    await auditLabSettings(trx, actor, 'stock_alert_settings', before, after);
    await evaluateAll(trx, actor, {
      ...day,
      expiryWarningDays: after.expiry_warning_days,
      approachingMarginPercent: after.approaching_margin_percent,
    });
  });
  return alertSettingsOf(db, actor.organizationId);
}

export async function listAlerts(db: Db, actor: Actor, q: AlertListQuery): Promise<AlertPage> {
  await sweepIfStale(db, actor);
  const { rows, total } = await selectAlertPage(db, actor.organizationId, q);
  return { alerts: rows.map(toAlert), ...pageEnvelope(total, q.page, q.limit) };
}

export async function getAlert(db: Db, organizationId: number, id: number): Promise<StockAlert> {
  const row = await findAlertFull(db, organizationId, id);
  if (!row) throw new NotFoundError('Stock alert', id);
  return toAlert(row);
}

/**
 * Staff acknowledge an alert (active -> acknowledged) and keep a note on it. Resolving is the
 * server's: an alert resolves by itself when the stock or date recovers, so a stock that is still
 * low cannot be marked resolved (409).
 */
export async function updateAlert(db: Db, actor: Actor, id: number, input: AlertUpdate): Promise<StockAlert> {
  await db.transaction().execute(async (trx) => {
    const before = await findAlertFull(trx, actor.organizationId, id);
    if (!before) throw new NotFoundError('Stock alert', id);
    const now = nowIso();
    const patch: Parameters<typeof updateAlertRow>[2] = {};
    if (input.status && input.status !== before.status) {
      if (input.status === 'resolved')
        throw new ConflictError(
          `${before.item_name}: this alert resolves by itself when the stock or expiry recovers; acknowledge it meanwhile`,
          'ALERT_STILL_HOLDS',
        );
      if (before.status === 'resolved')
        throw new ConflictError(
          'This alert is resolved; a new one is raised if the condition returns',
          'ALERT_RESOLVED',
        );
      if (input.status === 'acknowledged') {
        patch.status = 'acknowledged';
        patch.acknowledged_by = actor.userId;
        patch.acknowledged_at = now;
      } else {
        patch.status = 'active';
        patch.acknowledged_by = null;
        patch.acknowledged_at = null;
      }
    }
    if (input.note !== undefined) patch.note = input.note ?? null;
    if (!Object.keys(patch).length) return;
    await updateAlertRow(trx, id, patch);
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'stock_alert',
      entityId: id,
      oldValues: { status: before.status, note: before.note },
      newValues: { status: patch.status ?? before.status, note: patch.note === undefined ? before.note : patch.note },
    });
  });
  return getAlert(db, actor.organizationId, id);
}

/** Monday of the week of a YYYY-MM-DD date. */
function weekStart(ymd: string): string {
  const d = new Date(`${ymd}T00:00:00Z`).getUTCDay();
  return addDays(ymd, -((d + 6) % 7));
}

export async function alertSummary(db: Db, actor: Actor): Promise<AlertSummary> {
  await sweepIfStale(db, actor);
  const day = await inventoryDay(db, actor.organizationId);
  const monthAgo = startOfLocalDayUtc(day.timeZone, addDays(day.today, -30)).toISOString();
  const counts = await alertCounts(db, actor.organizationId, monthAgo);
  const byType = await openByType(db, actor.organizationId);
  const firstWeek = addDays(weekStart(day.today), -7 * 7);
  const trendSince = startOfLocalDayUtc(day.timeZone, firstWeek).toISOString();
  const weeks = Array.from({ length: 8 }, (_, i) => ({
    week_start: addDays(firstWeek, 7 * i),
    raised: 0,
    resolved: 0,
  }));
  const slot = (iso: string | null) => {
    if (!iso) return undefined;
    const ws = weekStart(localDate(day.timeZone, new Date(iso)));
    return weeks.find((w) => w.week_start === ws);
  };
  for (const t of await alertTimesSince(db, actor.organizationId, trendSince)) {
    const r = slot(t.created_at);
    if (r) r.raised += 1;
    const s = slot(t.resolved_at);
    if (s) s.resolved += 1;
  }
  return {
    active: counts.active,
    acknowledged: counts.acknowledged,
    critical: counts.critical,
    resolved_last_30_days: counts.resolved,
    by_type: ALERT_TYPES.map((t) => ({ alert_type: t, open: byType.get(t) ?? 0 })),
    trend: weeks,
  };
}
