import { z } from 'zod';
import { optionalText, requiredText, strictNumber } from './common.js';

/**
 * The accountant's exports (docs/decisions.md "Accounting exports"): the Tally ledger names a lab
 * sets to match its Tally company, how sales are posted (one voucher per bill or per day), and the
 * e-invoicing turnover rule; a month to export.
 */
export const LEDGER_KEYS = [
  'sales_exempt',
  'sales_taxable',
  'cgst',
  'sgst',
  'igst',
  'patients',
  'cash',
  'card',
  'upi',
  'bank_transfer',
  'cheque',
  'insurance',
] as const;
export type LedgerKey = (typeof LEDGER_KEYS)[number];

export const LEDGER_LABELS: Record<LedgerKey, string> = {
  sales_exempt: 'Sales, exempt (diagnostic services)',
  sales_taxable: 'Sales, taxable',
  cgst: 'Output CGST',
  sgst: 'Output SGST',
  igst: 'Output IGST',
  patients: 'Patients (walk-in debtors)',
  cash: 'Cash',
  card: 'Card',
  upi: 'UPI',
  bank_transfer: 'Bank transfer',
  cheque: 'Cheque',
  insurance: 'Insurance',
};

/** Tally's usual names: a new company's own ledgers where it has them. */
export const DEFAULT_LEDGERS: Record<LedgerKey, string> = {
  sales_exempt: 'Sales - Exempt',
  sales_taxable: 'Sales - Taxable',
  cgst: 'Output CGST',
  sgst: 'Output SGST',
  igst: 'Output IGST',
  patients: 'Patients',
  cash: 'Cash',
  card: 'Card Receipts',
  upi: 'UPI Receipts',
  bank_transfer: 'Bank',
  cheque: 'Cheques',
  insurance: 'Insurance Receivable',
};

export const SALES_VOUCHER_MODES = ['bill', 'day'] as const;
export type SalesVoucherMode = (typeof SALES_VOUCHER_MODES)[number];

/** E-invoicing applies above an aggregate turnover of 5 crore rupees (notification 10/2023-Central Tax). */
export const DEFAULT_EINVOICE_THRESHOLD = 50_000_000;

export const accountsSettingsSchema = z.object({
  tally_company: z.string().nullable(),
  sales_voucher_mode: z.enum(SALES_VOUCHER_MODES),
  ledgers: z.object(Object.fromEntries(LEDGER_KEYS.map((k) => [k, z.string()])) as Record<LedgerKey, z.ZodString>),
  /** The lab's aggregate turnover (rupees) of the previous financial year; null: not given. */
  annual_turnover: z.number().nullable(),
  /** Turnover above which B2B invoices need an IRN (rupees). */
  einvoice_threshold: z.number(),
  /** Whether the lab's B2B invoices need an IRN: turnover above the threshold. */
  einvoicing: z.boolean(),
});
export type AccountsSettings = z.infer<typeof accountsSettingsSchema>;

const rupeesField = (label: string) =>
  strictNumber(
    z
      .number({ error: `${label} must be an amount in rupees` })
      .min(0, `${label} cannot be negative`)
      .max(1e13, `${label} is too large`)
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, `${label} may have at most 2 decimals`),
  );

export const accountsSettingsUpdateSchema = z.object({
  tally_company: optionalText(100, 'Tally company'),
  sales_voucher_mode: z
    .enum(SALES_VOUCHER_MODES, { error: `sales_voucher_mode must be one of ${SALES_VOUCHER_MODES.join(', ')}` })
    .optional(),
  ledgers: z
    .object(
      Object.fromEntries(LEDGER_KEYS.map((k) => [k, requiredText(LEDGER_LABELS[k], 100).optional()])) as Record<
        LedgerKey,
        z.ZodOptional<ReturnType<typeof requiredText>>
      >,
    )
    .strict()
    .optional(),
  // An emptied field (the screen's form sends '') is "not given", as null is.
  annual_turnover: z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), rupeesField('Annual turnover').nullable())
    .optional(),
  einvoice_threshold: rupeesField('E-invoice threshold').optional(),
});
export type AccountsSettingsUpdate = z.infer<typeof accountsSettingsUpdateSchema>;

export const ACCOUNT_EXPORT_KINDS = ['tally', 'gstr1', 'gstr1-csv', 'einvoice'] as const;
export type AccountExportKind = (typeof ACCOUNT_EXPORT_KINDS)[number];

/** A calendar month 'YYYY-MM'. */
export const monthField = z
  .string({ error: 'month is required, as YYYY-MM' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be a month as YYYY-MM')
  .refine(
    (m) => Number(m.slice(0, 4)) >= 2000 && Number(m.slice(0, 4)) <= 2100,
    'month must be a year from 2000 to 2100',
  );

export const accountsExportQuery = z.object({ month: monthField });

/** The GSTR-1 offline tool imports one CSV per section; each is a download of its own. */
export const GSTR1_CSV_SECTIONS = [
  'b2b',
  'b2cl',
  'b2cs',
  'cdnr',
  'cdnur',
  'exemp',
  'hsn-b2b',
  'hsn-b2c',
  'docs',
] as const;
export type Gstr1CsvSection = (typeof GSTR1_CSV_SECTIONS)[number];

export const gstr1CsvQuery = z.object({
  month: monthField,
  section: z.enum(GSTR1_CSV_SECTIONS, { error: `section must be one of ${GSTR1_CSV_SECTIONS.join(', ')}` }),
});

/** The month on the accountant's screen, in rupees: the same rows, and the same figures, as its files. */
export const accountsSummarySchema = z.object({
  month: z.string(),
  /** The month's lab days, first and last. */
  from: z.string(),
  to: z.string(),
  /** Bills made in the month and live at its end. */
  bills: z.number().int(),
  /** Their total: exempt + taxable + tax. */
  sales: z.number(),
  exempt: z.number(),
  taxable: z.number(),
  tax: z.number(),
  receipts: z.number(),
  refunds: z.number(),
  /** Bills of earlier months cancelled in this one. */
  credit_notes: z.number(),
  /** Vouchers in the month's Tally file. */
  vouchers: z.number().int(),
  /** GST invoices to registered payers dated in the month. */
  b2b_invoices: z.number().int(),
  /** Whether the lab's turnover calls for e-invoicing (the IRN file is offered only then). */
  einvoicing: z.boolean(),
});
export type AccountsSummary = z.infer<typeof accountsSummarySchema>;
