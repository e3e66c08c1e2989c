import { z } from 'zod';
import { optionalPhone, optionalText, pageQuery, pagedShape, requiredText } from './common.js';
import { isTimeZone } from './settings.js';

/**
 * Multi-Tenant Setup: each organisation on the server is a tenant, a lab with its own
 * data. Statuses and plans are the spec's (001 section 9); see docs/decisions.md, "Multi-Tenant Setup".
 */
export const TENANT_STATUSES = ['active', 'suspended', 'pending', 'inactive'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

export const TENANT_STATUS_LABELS: Record<TenantStatus, string> = {
  active: 'Active',
  suspended: 'Suspended',
  pending: 'Pending',
  inactive: 'Inactive',
};

/** What the superadmin may set; pending is the lab's state until its admin has set a password. */
export const SETTABLE_TENANT_STATUSES = ['active', 'suspended', 'inactive'] as const;

export const TENANT_PLANS = ['basic', 'standard', 'professional', 'enterprise'] as const;
export type TenantPlan = (typeof TENANT_PLANS)[number];

export const TENANT_PLAN_LABELS: Record<TenantPlan, string> = {
  basic: 'Basic',
  standard: 'Standard',
  professional: 'Professional',
  enterprise: 'Enterprise',
};

/** The sign-in answer for a lab whose account is suspended or inactive (users and their sessions). */
export const LAB_CLOSED_MESSAGES: Partial<Record<TenantStatus, string>> = {
  suspended: "This lab's account is suspended. Contact your administrator.",
  inactive: "This lab's account is inactive. Contact your administrator.",
};

export const TENANT_PAGE_SIZES = [10, 20, 50] as const;
export const DEFAULT_TENANT_PAGE_SIZE = 10;

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The host name a lab's staff type into the browser (lab2.example.com, lims-lab2.clinic.lan): what
 * the server matches the request's Host header against. Lower case; no scheme, port or path.
 */
export const domainSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase().replace(/\.$/, '') : v),
  z
    .string({ error: 'Domain is required' })
    .min(1, 'Domain is required')
    .max(253, 'Domain must be at most 253 characters')
    .refine((d) => !/[/:]/.test(d), {
      message: 'Domain is a host name only, such as lab2.example.com: no http://, port or path',
      abort: true,
    })
    .refine((d) => d.split('.').every((label) => HOST_LABEL.test(label)), {
      message:
        'Domain may contain only letters, digits, hyphens and dots, such as lab2.example.com (each part at most 63 characters, not starting or ending with a hyphen)',
      abort: true,
    })
    .refine((d) => d !== 'localhost' && !d.endsWith('.localhost'), {
      message: 'localhost names the server itself; give the lab a name of its own',
    }),
);

const plan = z.enum(TENANT_PLANS, { error: `Plan must be one of ${TENANT_PLANS.join(', ')}` });
const settableStatus = z.enum(SETTABLE_TENANT_STATUSES, {
  error: `Status must be one of ${SETTABLE_TENANT_STATUSES.join(', ')} (a lab is pending until its admin sets a password)`,
});

const email = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
  z.email('Enter a valid email address').max(254),
);

/** The spec's Tenant Setup Wizard: Tenant Name, Domain, Plan, Admin Email; Advanced Setup adds the rest. */
export const tenantCreateSchema = z.object({
  name: requiredText('Tenant name', 120),
  domain: domainSchema,
  plan,
  admin_email: email,
  // Advanced Setup
  admin_first_name: optionalText(60, 'Admin first name'),
  admin_last_name: optionalText(60, 'Admin last name'),
  phone: optionalPhone('Lab phone'),
  address: optionalText(300, 'Lab address'),
  timezone: z
    .string()
    .refine(isTimeZone, { message: 'Time zone must be a known time zone such as Asia/Kolkata' })
    .optional(),
});
export type TenantCreate = z.infer<typeof tenantCreateSchema>;
export type TenantCreateInput = z.input<typeof tenantCreateSchema>;

/** PUT takes any subset; the primary lab's domain may be cleared (null), a tenant's may not. */
export const tenantUpdateSchema = z
  .object({
    name: requiredText('Tenant name', 120),
    domain: domainSchema.nullable(),
    plan,
    status: settableStatus,
  })
  .partial();
export type TenantUpdate = z.infer<typeof tenantUpdateSchema>;

const blankIsAll = (v: unknown) => (v === '' || v === 'all' ? undefined : v);

export const tenantListQuery = pageQuery.extend({
  search: z.string().trim().max(100, 'search must be at most 100 characters').optional(),
  status: z.preprocess(
    blankIsAll,
    z.enum(TENANT_STATUSES, { error: `status must be one of ${TENANT_STATUSES.join(', ')}` }).optional(),
  ),
  plan: z.preprocess(
    blankIsAll,
    z.enum(TENANT_PLANS, { error: `plan must be one of ${TENANT_PLANS.join(', ')}` }).optional(),
  ),
});
export type TenantListQuery = z.infer<typeof tenantListQuery>;

/** Counted from each lab's own rows (docs/decisions.md says what each figure is). */
const figures = {
  /** Active staff accounts. */
  users: z.number().int(),
  patients: z.number().int(),
  /** Tests performed: result rows entered. */
  tests: z.number().int(),
  /** Bytes of the lab's stored rows (values; indexes and the database's own overhead not counted). */
  storage_bytes: z.number().int(),
};

export const tenantSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  domain: z.string().nullable(),
  /** null: no plan recorded (the server's own lab, or a lab set up before tenants existed). */
  plan: z.enum(TENANT_PLANS).nullable(),
  status: z.enum(TENANT_STATUSES),
  /** The server's first lab, where the superadmin works: it cannot be suspended. */
  is_primary: z.boolean(),
  /** The lab's first administrator. */
  admin_email: z.string().nullable(),
  /** The administrator has not set a password yet (an invitation is open or has expired). */
  admin_pending: z.boolean(),
  ...figures,
  /** When storage was measured (a large database's measurement is reused for up to 10 minutes). */
  storage_measured_at: z.string(),
  created_at: z.string(),
  /** The lab's latest audit-trail entry: the last thing anyone did there. */
  last_activity: z.string().nullable(),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const tenantPageSchema = z.object({ tenants: z.array(tenantSchema), ...pagedShape });
export type TenantPage = z.infer<typeof tenantPageSchema>;

const labFigures = z.object({ id: z.number().int(), name: z.string(), ...figures });

export const tenantSummarySchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  suspended: z.number().int(),
  pending: z.number().int(),
  inactive: z.number().int(),
  /** All labs together. */
  ...figures,
  storage_measured_at: z.string(),
  /** Resource Usage: the labs storing the most, up to 5, largest first. */
  top_storage: z.array(labFigures),
  /** Tenant Performance: the labs with the most tests performed, up to 5, most first. */
  top_tests: z.array(labFigures),
});
export type TenantSummary = z.infer<typeof tenantSummarySchema>;

/** A one-time link just issued: shown once to its creator, who passes it on. */
export const issuedInvitationSchema = z.object({
  email: z.string(),
  /** The link's path: `/invitation#<token>` (the token never reaches a server log). */
  path: z.string(),
  expires_at: z.string(),
});
export type IssuedInvitation = z.infer<typeof issuedInvitationSchema>;
