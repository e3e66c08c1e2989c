import { z } from 'zod';
import { rupeeAmount } from '@shared/schemas/common';
import {
  packageCreateSchema,
  priceUpdateSchema,
  profileCreateSchema,
  testCreateSchema,
} from '@shared/schemas/catalogue';

/**
 * Form schemas of the catalogue dialogs: the server's schemas (src/shared) with the money fields
 * read from text inputs. A bare z.coerce.number() would turn an empty price box into 0 and save
 * a free test; here an empty price is "Price is required" and an empty base price means "same as
 * the price" (the server's default).
 */
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
const requiredAmount = (label: string) =>
  z.preprocess((v, ctx) => {
    if (!blank(v)) return v;
    ctx.addIssue({ code: 'custom', message: `${label} is required` });
    return z.NEVER;
  }, rupeeAmount(label));
const optionalAmount = (label: string) =>
  z.preprocess((v) => (blank(v) ? undefined : v), rupeeAmount(label).optional());

const money = { price: requiredAmount('Price'), base_price: optionalAmount('Base price') };

export const testFormSchema = testCreateSchema.extend(money);
export const profileFormSchema = profileCreateSchema.extend(money);
export const packageFormSchema = packageCreateSchema.extend(money);
export const priceFormSchema = priceUpdateSchema.extend({
  price: requiredAmount('Current price'),
  base_price: requiredAmount('Base price'),
});

export type TestFormIn = z.input<typeof testFormSchema>;
export type ProfileFormIn = z.input<typeof profileFormSchema>;
export type PackageFormIn = z.input<typeof packageFormSchema>;

/** Rupees as the text a price box starts with: 450 -> "450", 12.5 -> "12.50". */
export function amountText(n: number | null | undefined): string {
  if (n === null || n === undefined) return '';
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** An empty base price means "the same as the price", when adding and when editing alike. */
export function withBasePrice<T extends { price: number; base_price?: number | undefined }>(
  body: T,
): T & { base_price: number } {
  return { ...body, base_price: body.base_price ?? body.price };
}

/** The fields every catalogue item has, in the API's names (for a 400's details). */
export const COMMON_FIELDS = ['name', 'code', 'category', 'price', 'base_price', 'status', 'description'] as const;

/** What the common fields of a dialog start from: the item's values, or empty for a new one. */
export function commonDefaults(
  item: {
    name: string;
    code: string;
    category: string | null;
    price: number;
    base_price: number;
    status: string;
    description: string | null;
  } | null,
) {
  return {
    name: item?.name ?? '',
    code: item?.code ?? '',
    category: item?.category ?? '',
    price: amountText(item?.price),
    base_price: amountText(item?.base_price),
    status: item?.status === 'inactive' ? ('inactive' as const) : ('active' as const),
    description: item?.description ?? '',
  };
}
