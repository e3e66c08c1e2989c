import { percentOf, type Paise } from './billing.js';

/** One entry of a payer's price list (GET /api/payers/{id}/prices), in rupees as the API gives it. */
export interface PayerPriceEntry {
  id: number;
  item_type: string;
  item_id: number;
  price: number;
  effective_from: string;
  effective_to: string | null;
}

/**
 * What a payer is charged for an item on a day, the rule of the server's payerUnitPrice:
 * its list entry in force that day (the latest effective_from on or before it, effective_to
 * inclusive; the later-added entry on a tie), else the lab's price less the payer's discount %.
 */
export function payerPriceOn(
  entries: readonly PayerPriceEntry[],
  item: { item_type: string; item_id: number; labPricePaise: Paise },
  discountPercent: number,
  day: string,
): Paise {
  const inForce = entries
    .filter(
      (e) =>
        e.item_type === item.item_type &&
        e.item_id === item.item_id &&
        e.effective_from <= day &&
        (e.effective_to === null || e.effective_to >= day),
    )
    .sort((a, b) =>
      a.effective_from === b.effective_from ? b.id - a.id : a.effective_from < b.effective_from ? 1 : -1,
    );
  if (inForce[0]) return Math.round(inForce[0].price * 100);
  return item.labPricePaise - percentOf(item.labPricePaise, discountPercent);
}
