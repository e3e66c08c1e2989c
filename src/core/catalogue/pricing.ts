import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import type { PriceChange } from '../../shared/schemas/catalogue.js';
import { insertPriceChange, priceChangesOf } from './repository.js';

export type ItemType = 'test' | 'profile' | 'package';

/**
 * Keeps who changed a price, when, from what and to what. Bills copy the charged price into their
 * lines, so a change here never rewrites a bill already issued.
 */
export async function recordPriceChange(
  trx: Db,
  actor: Actor,
  itemType: ItemType,
  itemId: number,
  before: { price_paise: number; base_price_paise: number } | null,
  after: { price_paise: number; base_price_paise: number },
): Promise<void> {
  if (before && before.price_paise === after.price_paise && before.base_price_paise === after.base_price_paise) return;
  await insertPriceChange(trx, {
    organization_id: actor.organizationId,
    item_type: itemType,
    item_id: itemId,
    old_price_paise: before?.price_paise ?? null,
    new_price_paise: after.price_paise,
    old_base_price_paise: before?.base_price_paise ?? null,
    new_base_price_paise: after.base_price_paise,
    changed_by: actor.userId,
    changed_by_email: actor.email,
    changed_at: nowIso(),
  });
}

export async function priceHistory(
  db: Db,
  organizationId: number,
  itemType: ItemType,
  itemId: number,
): Promise<PriceChange[]> {
  const rows = await priceChangesOf(db, organizationId, itemType, itemId);
  return rows.map((r) => ({
    id: r.id,
    item_type: r.item_type as ItemType,
    item_id: r.item_id,
    old_price: r.old_price_paise === null ? null : r.old_price_paise / 100,
    new_price: r.new_price_paise / 100,
    old_base_price: r.old_base_price_paise === null ? null : r.old_base_price_paise / 100,
    new_base_price: r.new_base_price_paise / 100,
    changed_by: r.changed_by,
    changed_by_email: r.changed_by_email,
    changed_at: r.changed_at,
  }));
}
