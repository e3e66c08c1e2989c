import { z } from 'zod';
import { isoDate, optionalText, requiredText, strictNumber } from './common.js';
import {
  COLUMN_KINDS,
  CUSTOM_ENTITIES,
  CUSTOM_ENTITY_DEFS,
  REPORT_FORMATS,
  REPORT_MAX_DAYS,
  REPORT_PAGE_MAX,
  REPORT_RANGES,
  REPORT_TYPES,
} from '../reports.js';

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const days = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;

const rangeDays = strictNumber(
  z
    .number({ error: `range must be one of ${REPORT_RANGES.join(', ')} days` })
    .refine((n) => (REPORT_RANGES as readonly number[]).includes(n), {
      message: `range must be one of ${REPORT_RANGES.join(', ')} days`,
    }),
);

/** A period: from/to (lab days), or the last `range` days up to today; 30 days when neither is given. */
const periodFields = {
  from: z.preprocess(emptyToUndefined, isoDate('from').optional()),
  to: z.preprocess(emptyToUndefined, isoDate('to').optional()),
  range: z.preprocess(emptyToUndefined, rangeDays.optional()),
};
const periodChecks = <T extends z.ZodObject<typeof periodFields>>(s: T) =>
  s
    .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must be on or after from' })
    .refine((q) => !q.from || !q.to || days(q.from, q.to) <= REPORT_MAX_DAYS, {
      path: ['to'],
      message: `A report covers at most ${REPORT_MAX_DAYS} days`,
    })
    .refine((q) => q.range === undefined || (!q.from && !q.to), {
      path: ['range'],
      message: 'Give either range or from/to, not both',
    });

/** A page of a report's rows (JSON only): page from 1, limit up to REPORT_PAGE_MAX. */
const pageFields = {
  page: z.preprocess(
    emptyToUndefined,
    strictNumber(
      z
        .number({ error: 'page must be a number' })
        .int('page must be a whole number')
        .min(1, 'page must be 1 or more')
        .optional(),
    ),
  ),
  limit: z.preprocess(
    emptyToUndefined,
    strictNumber(
      z
        .number({ error: 'limit must be a number' })
        .int('limit must be a whole number')
        .min(1, 'limit must be 1 or more')
        .max(REPORT_PAGE_MAX, `limit must be at most ${REPORT_PAGE_MAX}`)
        .optional(),
    ),
  ),
};

export const reportRunQuery = periodChecks(
  z.object({
    ...periodFields,
    ...pageFields,
    format: z.preprocess(
      emptyToUndefined,
      z.enum(REPORT_FORMATS, { error: `format must be one of ${REPORT_FORMATS.join(', ')}` }).default('json'),
    ),
  }),
).refine((q) => q.format === 'json' || (q.page === undefined && q.limit === undefined), {
  path: ['page'],
  message: 'page and limit page the on-screen (JSON) report; a download carries every row',
});
export type ReportRunQuery = z.infer<typeof reportRunQuery>;
/** Which rows of the period a JSON run returns: all of them, or one page (the totals are always the period's). */
export interface ReportPage {
  page: number;
  limit: number;
}
export type ReportPeriodQuery = Pick<ReportRunQuery, 'from' | 'to' | 'range'>;

export const reportCatalogueQuery = periodChecks(
  z.object({
    ...periodFields,
    type: z.preprocess(
      emptyToUndefined,
      z.enum(REPORT_TYPES, { error: `type must be one of ${REPORT_TYPES.join(', ')}` }).optional(),
    ),
  }),
);
export type ReportCatalogueQuery = z.infer<typeof reportCatalogueQuery>;

export const reportIdParams = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, 'id must be a report id such as revenue-by-test'),
});

const cell = z.union([z.string(), z.number(), z.null()]);
export const reportColumnSchema = z.object({ key: z.string(), label: z.string(), kind: z.enum(COLUMN_KINDS) });
export type ReportColumn = z.infer<typeof reportColumnSchema>;

export const reportChartSchema = z.object({
  title: z.string(),
  kind: z.enum(['bar', 'line']),
  label: z.string(),
  value_label: z.string(),
  value_kind: z.enum(COLUMN_KINDS),
  points: z.array(z.object({ label: z.string(), value: z.number() })),
});
export type ReportChart = z.infer<typeof reportChartSchema>;

export const reportResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(REPORT_TYPES),
  from: z.string(),
  to: z.string(),
  generated_at: z.string(),
  columns: z.array(reportColumnSchema),
  rows: z.array(z.record(z.string(), cell)),
  /** Rows of the whole period; `rows` holds them all unless a page was asked for. */
  row_count: z.number(),
  /** The page asked for (page from 1, limit), or null: every row. */
  page: z.object({ page: z.number(), limit: z.number() }).nullable(),
  totals: z.record(z.string(), cell).nullable(),
  chart: reportChartSchema.nullable(),
  notes: z.array(z.string()),
});
export type ReportResult = z.infer<typeof reportResultSchema>;
export const reportResponseSchema = z.object({ report: reportResultSchema });

export const reportEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(REPORT_TYPES),
  description: z.string(),
  status: z.enum(['active', 'inactive', 'pending']),
  custom: z.boolean(),
  last_generated: z.string().nullable(),
  count: z.number(),
});
export type ReportEntry = z.infer<typeof reportEntrySchema>;

export const reportCatalogueSchema = z.object({
  from: z.string(),
  to: z.string(),
  reports: z.array(reportEntrySchema),
  cards: z.object({
    total_reports: z.number(),
    generated_today: z.number(),
    total_revenue: z.number(),
    active_reports: z.number(),
  }),
  data_summary: z.object({
    patients: z.number(),
    doctors: z.number(),
    samples: z.number(),
    test_results: z.number(),
    bills: z.number(),
  }),
});
export type ReportCatalogue = z.infer<typeof reportCatalogueSchema>;

export const customReportCreateSchema = z
  .object({
    name: requiredText('Name', 80),
    description: optionalText(300, 'Description'),
    entity: z.enum(CUSTOM_ENTITIES, { error: `entity must be one of ${CUSTOM_ENTITIES.join(', ')}` }),
    columns: z.array(z.string()).min(1, 'Pick at least one column').max(20),
    filters: z.record(z.string(), z.string()).default({}),
    range_days: rangeDays.default(30),
  })
  .superRefine((r, ctx) => {
    const def = CUSTOM_ENTITY_DEFS[r.entity];
    if (!def) return;
    r.columns.forEach((c, i) => {
      if (!(c in def.columns))
        ctx.addIssue({ code: 'custom', path: ['columns', i], message: `${def.label} have no column ${c}` });
    });
    if (new Set(r.columns).size !== r.columns.length)
      ctx.addIssue({ code: 'custom', path: ['columns'], message: 'A column is picked twice' });
    for (const [k, v] of Object.entries(r.filters)) {
      const f = def.filters[k];
      if (!f)
        ctx.addIssue({ code: 'custom', path: ['filters', k], message: `${def.label} cannot be filtered by ${k}` });
      else if (!f.options.includes(v))
        ctx.addIssue({
          code: 'custom',
          path: ['filters', k],
          message: `${f.label} must be one of ${f.options.join(', ')}`,
        });
    }
  });
export type CustomReportCreate = z.infer<typeof customReportCreateSchema>;

export const customReportSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  entity: z.enum(CUSTOM_ENTITIES),
  columns: z.array(z.string()),
  filters: z.record(z.string(), z.string()),
  range_days: z.number(),
  created_at: z.string(),
});
export type CustomReport = z.infer<typeof customReportSchema>;

export const monthlyQuery = z.object({
  month: z
    .string({ error: 'month is required' })
    .regex(/^(1\d{3}|2\d{3})-(0[1-9]|1[0-2])$/, 'month must be a month as YYYY-MM'),
  format: z.preprocess(
    emptyToUndefined,
    z.enum(['json', 'pdf'], { error: 'format must be json or pdf' }).default('json'),
  ),
});
export type MonthlyQuery = z.infer<typeof monthlyQuery>;

export const monthlyFigureSchema = z.object({
  label: z.string(),
  value: z.number().nullable(),
  kind: z.enum(COLUMN_KINDS),
});
export const monthlyReportSchema = z.object({
  month: z.string(),
  from: z.string(),
  to: z.string(),
  figures: z.array(monthlyFigureSchema),
  sections: z.array(reportResultSchema),
});
export type MonthlyReport = z.infer<typeof monthlyReportSchema>;
