import { z } from 'zod';
import { userCreateSchema, userUpdateSchema, type UserCreate, type UserUpdate } from '../../../shared/schemas/users.js';
import { isNoEmailPlaceholder } from '../../../shared/schemas/doctors.js';
import { ROLES } from '../../../shared/roles.js';
import { NO_PASSWORD } from '../../auth/service.js';
import { applyUserUpdate, insertUser, listUsers } from '../../users/service.js';
import { usersByEmails, type UserRow } from '../../users/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { lowerKey, oneOf, pagesOf, recordOf } from './common.js';

/**
 * Staff accounts, keyed by email; doctors (role doctor) are Doctor Management's, with their own
 * entity (`lims export doctors`, with qualification and registration). Passwords never travel: no column carries one (or its hash), and
 * an imported account has none, so it cannot sign in until an administrator sets one (`lims user
 * reset-password`, or Reset Password on the Users screen). The superadmin is made by `lims setup`
 * only: an import neither creates one nor changes anyone's role to or from it.
 */

const columns: TransferColumn[] = [
  { name: 'email' },
  { name: 'title' },
  { name: 'first_name' },
  { name: 'last_name' },
  { name: 'role' },
  { name: 'department' },
  { name: 'phone' },
  { name: 'specialization' },
  { name: 'consultation_fee', kind: 'number' },
  { name: 'is_active', kind: 'boolean' },
  { name: 'last_login', kind: 'timestamp', readOnly: true },
];

const realEmail = (e: string | undefined) => e === undefined || !isNoEmailPlaceholder(e);
const placeholder = { message: 'this address stands for a doctor without an email; export doctors instead' };
const notDoctor = {
  message: 'doctors are imported with lims import doctors (with their qualification and registration)',
};

const createSchema = userCreateSchema
  .omit({ password: true })
  .extend({ is_active: z.boolean({ error: 'is_active must be true or false' }).default(true) })
  .refine((u) => realEmail(u.email), { ...placeholder, path: ['email'] })
  .refine((u) => u.role !== 'doctor', { ...notDoctor, path: ['role'] });
type Input = z.infer<typeof createSchema>;
type Plan = { row: number; existing: UserRow | null; input: Partial<Input> };

export const users: TransferEntity<Input, UserRow, Plan> = {
  name: 'users',
  label: 'user',
  auditEntity: 'user',
  columns,
  key: 'email',
  normalizeKey: lowerKey,
  requiredColumns: ['email', 'first_name', 'last_name', 'role'],
  createSchema,
  updateSchema: userUpdateSchema.refine((u) => u.role !== 'doctor', { ...notDoctor, path: ['role'] }) as z.ZodType<
    Partial<Input>
  >,

  async findExisting(ctx, keys) {
    const rows = await usersByEmails(ctx.db, ctx.organizationId, keys);
    return new Map(rows.filter((u) => u.role !== 'doctor').map((u) => [u.email.toLowerCase(), u]));
  },

  async plan(ctx, rows) {
    const fresh = rows.filter((r) => !r.existing).map((r) => r.input.email!);
    const taken = new Map(
      (await usersByEmails(ctx.db, ctx.organizationId, fresh)).map((u) => [u.email.toLowerCase(), u]),
    );
    return rows.map((r) => {
      const role = r.input.role;
      const wasSuper = r.existing?.role === 'superadmin';
      const other = r.existing ? undefined : taken.get(r.input.email!);
      if (other)
        return {
          row: r.row,
          errors: [
            {
              column: 'email',
              message: `${r.input.email} is a doctor of this lab (Doctor Management)`,
            },
          ],
        };
      if (role !== undefined && (role === 'superadmin') !== wasSuper)
        return {
          row: r.row,
          errors: [
            {
              column: 'role',
              message: wasSuper
                ? 'the superadmin keeps that role'
                : 'a lab has one superadmin, made by lims setup; give another role',
            },
          ],
        };
      return { row: r.row, plan: { row: r.row, existing: r.existing ?? null, input: r.input } };
    });
  },

  async write(ctx, plans) {
    let inserted = 0;
    let updated = 0;
    for (const p of plans) {
      const done = await ctx.attempt(p.row, async () => {
        if (!p.existing) await insertUser(ctx.db, ctx.actor, p.input as Omit<UserCreate, 'password'>, NO_PASSWORD);
        else await applyUserUpdate(ctx.db, ctx.actor, p.existing, p.input as UserUpdate);
        return true;
      });
      if (done && !p.existing) inserted += 1;
      else if (done) updated += 1;
    }
    return { inserted, updated };
  },

  filters: {
    role: oneOf(ROLES),
    is_active: z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true'),
  },
  async *exportPages(db, organizationId, q) {
    const list = (
      await listUsers(db, organizationId, {
        role: q.where.role as UserCreate['role'] | undefined,
        include_inactive: true,
      })
    ).filter(
      (u) =>
        u.role !== 'doctor' &&
        !isNoEmailPlaceholder(u.email) &&
        (q.where.is_active === undefined || u.is_active === q.where.is_active),
    );
    const records = list.map((u) => recordOf(columns, u));
    yield* pagesOf(records);
  },
};
