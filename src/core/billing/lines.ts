import { findItem } from '../catalogue/repository.js';
import type { Db } from '../db/connection.js';
import { ValidationError } from '../errors.js';
import { rupeesToPaise } from '../../shared/money.js';
import type { BillItemInput } from '../../shared/schemas/bills.js';
import { DEFAULT_SAC, taxRateOf } from '../../shared/gst.js';

export interface ResolvedLine {
  item_type: 'test' | 'profile' | 'package';
  test_id: number | null;
  profile_id: number | null;
  package_id: number | null;
  name: string;
  code: string;
  qty: number;
  list_price_paise: number;
  unit_price_paise: number;
  gst_percent: number;
  discount_percent: number;
  /** GST (src/shared/gst.ts): a test's category and SAC; profiles and packages are exempt diagnostic services. */
  tax_category: string;
  sac_code: string;
}

/** How a bill charged to a payer prices a line the biller did not price: the payer's price on that day. */
export type LinePricer = (
  itemType: 'test' | 'profile' | 'package',
  itemId: number,
  labPricePaise: number,
) => Promise<number>;

const TABLE = { test: 'tests', profile: 'test_profiles', package: 'test_packages' } as const;
const LABEL = { test: 'test', profile: 'test profile', package: 'test package' } as const;

/** Looks every line's item up in this lab's catalogue; unknown or inactive items are refused by line. */
export async function resolveLines(
  db: Db,
  organizationId: number,
  items: BillItemInput[],
  pricer?: LinePricer,
): Promise<ResolvedLine[]> {
  const out: ResolvedLine[] = [];
  for (const [i, item] of items.entries()) {
    const row = await findItem<{
      id: number;
      name: string;
      code: string;
      price_paise: number;
      status: string;
      tax_category?: string;
      sac_code?: string | null;
    }>(db, TABLE[item.item_type], organizationId, item.item_id);
    if (!row) throw ValidationError.field(`items.${i}.item_id`, `Unknown ${LABEL[item.item_type]} ${item.item_id}`);
    if (row.status !== 'active')
      throw ValidationError.field(`items.${i}.item_id`, `${row.name} is inactive and cannot be billed`);
    out.push({
      item_type: item.item_type,
      test_id: item.item_type === 'test' ? row.id : null,
      profile_id: item.item_type === 'profile' ? row.id : null,
      package_id: item.item_type === 'package' ? row.id : null,
      name: row.name,
      code: row.code,
      qty: item.qty,
      list_price_paise: row.price_paise,
      unit_price_paise:
        item.price !== undefined
          ? rupeesToPaise(item.price)
          : pricer
            ? await pricer(item.item_type, row.id, row.price_paise)
            : row.price_paise,
      gst_percent: taxRateOf(row.tax_category ?? 'exempt'),
      discount_percent: item.discount_percent,
      tax_category: item.item_type === 'test' ? (row.tax_category ?? 'exempt') : 'exempt',
      sac_code: row.sac_code || DEFAULT_SAC,
    });
  }
  return out;
}
