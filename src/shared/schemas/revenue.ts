import { z } from 'zod';
import { isoDate } from './common.js';
import { methodAmounts } from './payments.js';

/** The longest range one revenue request covers (a year and a day, for leap years). */
export const REVENUE_MAX_DAYS = 366;

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

export const revenueQuery = z
  .object({
    from: z.preprocess(emptyToUndefined, isoDate('from').optional()),
    to: z.preprocess(emptyToUndefined, isoDate('to').optional()),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must be on or after from' })
  .refine(
    (q) =>
      !q.from ||
      !q.to ||
      (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000 < REVENUE_MAX_DAYS,
    { path: ['to'], message: `A revenue report covers at most ${REVENUE_MAX_DAYS} days` },
  );
export type RevenueQuery = z.infer<typeof revenueQuery>;

export const REVENUE_EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export const revenueExportQuery = z
  .object({
    from: z.preprocess(emptyToUndefined, isoDate('from').optional()),
    to: z.preprocess(emptyToUndefined, isoDate('to').optional()),
    format: z.enum(REVENUE_EXPORT_FORMATS, { error: `format must be one of ${REVENUE_EXPORT_FORMATS.join(', ')}` }),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must be on or after from' });

const dayFields = {
  total: z.number(),
  ...methodAmounts,
  refunds: z.number(),
  /** Bill discounts of the day's bills (the discount on each bill as a whole; src/shared/figures.ts). */
  discounts: z.number(),
  patients: z.number(),
  average_bill: z.number(),
};

export const revenueDaySchema = z.object({ date: z.string(), ...dayFields });
export type RevenueDay = z.infer<typeof revenueDaySchema>;
export const revenueTotalsSchema = z.object({ ...dayFields, bills: z.number() });
export type RevenueTotals = z.infer<typeof revenueTotalsSchema>;

export const revenueDailySchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(revenueDaySchema),
  totals: revenueTotalsSchema,
});
export type RevenueDaily = z.infer<typeof revenueDailySchema>;

const card = z.object({ current: z.number(), previous: z.number(), change_percent: z.number().nullable() });

export const revenueAnalyticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  previous_from: z.string(),
  previous_to: z.string(),
  cards: z.object({ total: card, patients: card, average_bill: card, refunds: card }),
  by_category: z.array(z.object({ category: z.string(), amount: z.number(), items: z.number() })),
  by_doctor: z.array(
    z.object({ doctor_id: z.number().nullable(), doctor_name: z.string(), amount: z.number(), bills: z.number() }),
  ),
  forecast: z.object({
    method: z.string(),
    basis_days: z.number(),
    daily_average: z.number(),
    next_7_days: z.number(),
    next_30_days: z.number(),
  }),
});
export type RevenueAnalytics = z.infer<typeof revenueAnalyticsSchema>;
