import { z } from 'zod';
import { strictNumber } from './common.js';
import { ITEM_KINDS } from '../inventory.js';

/** Field rules the inventory schemas share: items and the ledger, suppliers, stock alerts. */

export const INVENTORY_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_INVENTORY_PAGE_SIZE = 50;

export const blankIsAll = (v: unknown) => (v === '' || v === 'all' ? undefined : v);
export const blankIsNull = (v: unknown) => (v === '' ? null : v);

export const wholeUnits = (label: string, opts: { min?: number; max?: number } = {}) =>
  strictNumber(
    z
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(
        opts.min ?? 0,
        opts.min === undefined || opts.min === 0
          ? `${label} cannot be negative`
          : `${label} must be at least ${opts.min}`,
      )
      .max(
        opts.max ?? 1_000_000_000,
        `${label} must be at most ${(opts.max ?? 1_000_000_000).toLocaleString('en-IN')}`,
      ),
  );

export const itemKind = z.enum(ITEM_KINDS, { error: `kind must be one of ${ITEM_KINDS.join(', ')}` });
