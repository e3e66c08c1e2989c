import { z } from 'zod';
import { strictNumber } from './common.js';

/** Analytics Dashboard ranges (spec 001 section 9): the last 7, 30, 90 or 365 lab days, today included. */
export const ANALYTICS_RANGES = [7, 30, 90, 365] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const ANALYTICS_CHART_TYPES = ['bar', 'line', 'pie'] as const;
export type AnalyticsChartType = (typeof ANALYTICS_CHART_TYPES)[number];

export const analyticsQuery = z.object({
  days: strictNumber(
    z
      .number({ error: `days must be one of ${ANALYTICS_RANGES.join(', ')}` })
      .refine((n) => (ANALYTICS_RANGES as readonly number[]).includes(n), {
        message: `days must be one of ${ANALYTICS_RANGES.join(', ')}`,
      })
      .default(30),
  ),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

export const analyticsDaySchema = z.object({
  /** The lab's calendar day, YYYY-MM-DD. */
  date: z.string(),
  samples_collected: z.number(),
  results_verified: z.number(),
  /** Rupees billed that day (bill lines after line discounts, cancelled bills excluded). */
  revenue: z.number(),
});

export const analyticsSchema = z.object({
  days: z.number(),
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
  cards: z.object({
    /** Distinct patients with a sample collected in the range. */
    patients: z.number(),
    samples_collected: z.number(),
    results_verified: z.number(),
    revenue: z.number(),
  }),
  daily: z.array(analyticsDaySchema),
  /** Tests ordered on the samples collected in the range, most first (at most 10). */
  test_distribution: z.array(z.object({ test_id: z.number(), test_name: z.string(), count: z.number() })),
  performance: z.object({
    samples_per_day: z.number(),
    /** Collection -> verification, in minutes, of the results verified in the range (null: none). */
    tat_median_minutes: z.number().nullable(),
    tat_p90_minutes: z.number().nullable(),
    tat_results: z.number(),
    /** Entered results not yet verified, now (whatever day they were entered). */
    verification_backlog: z.number(),
    rejected_samples: z.number(),
    /** Rejected samples / samples collected in the range, percent (null: nothing collected). */
    rejection_rate: z.number().nullable(),
  }),
  revenue_by_category: z.array(z.object({ category: z.string(), lines: z.number(), revenue: z.number() })),
});
export type Analytics = z.infer<typeof analyticsSchema>;

export const liveSchema = z.object({
  /** The lab's today (YYYY-MM-DD) and the moment these figures were read. */
  date: z.string(),
  updated_at: z.string(),
  time_zone: z.string(),
  /** Today's samples (registered or collected today) by status. */
  samples_by_status: z.array(z.object({ status: z.string(), count: z.number() })),
  awaiting_verification: z.object({
    count: z.number(),
    oldest_minutes: z.number().nullable(),
    items: z.array(
      z.object({
        result_id: z.number(),
        sample_code: z.string(),
        test_name: z.string(),
        entered_at: z.string(),
        waiting_minutes: z.number(),
        is_critical: z.boolean(),
      }),
    ),
  }),
  critical_unacknowledged: z.object({
    count: z.number(),
    items: z.array(
      z.object({
        result_id: z.number(),
        sample_code: z.string(),
        test_name: z.string(),
        value: z.string().nullable(),
        unit: z.string().nullable(),
        entered_at: z.string(),
        minutes_since: z.number(),
      }),
    ),
  }),
  tat_breaches: z.object({
    count: z.number(),
    items: z.array(
      z.object({
        sample_code: z.string(),
        test_id: z.number(),
        test_name: z.string(),
        target_minutes: z.number(),
        elapsed_minutes: z.number(),
        /** Verified late today (true) or still open past its target (false). */
        verified: z.boolean(),
      }),
    ),
  }),
  /** Open low / out-of-stock alerts; null when the role does not have view_inventory. */
  low_stock: z
    .object({
      count: z.number(),
      items: z.array(
        z.object({ item_name: z.string(), alert_type: z.string(), priority: z.string(), current_stock: z.number() }),
      ),
    })
    .nullable(),
  /** Calibrations past their due date; null when the role does not have view_equipment. */
  overdue_calibrations: z
    .object({
      count: z.number(),
      items: z.array(
        z.object({ equipment_name: z.string(), type: z.string(), due_date: z.string(), days_overdue: z.number() }),
      ),
    })
    .nullable(),
});
export type LiveBoard = z.infer<typeof liveSchema>;
