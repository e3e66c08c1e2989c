import { z } from 'zod';
import {
  DOCTOR_STATUSES,
  doctorCreateFields,
  doctorUpdateSchema,
  type DoctorCreate,
  type DoctorUpdate,
} from '../../../shared/schemas/doctors.js';
import { NO_PASSWORD } from '../../auth/service.js';
import { applyDoctorUpdate, insertDoctor, toDoctor } from '../../doctors/service.js';
import { doctorRowsAfter, doctorRowsByEmails, type DoctorRow } from '../../doctors/repository.js';
import { usersByEmails } from '../../users/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { lowerKey, oneOf, recordOf } from './common.js';

/**
 * Doctors (Doctor Management), keyed by email. A row without an email is always a new doctor (most
 * referring doctors have none). Imported doctors cannot sign in: a password is set afterwards in
 * Doctor Management, so can_sign_in is exported for information and ignored on import.
 */

const columns: TransferColumn[] = [
  { name: 'email' },
  { name: 'title' },
  { name: 'first_name' },
  { name: 'last_name' },
  { name: 'phone' },
  { name: 'specialization' },
  { name: 'qualification' },
  { name: 'experience_years', kind: 'number' },
  { name: 'consultation_fee', kind: 'number' },
  { name: 'registration_number' },
  { name: 'status' },
  { name: 'can_sign_in', kind: 'boolean', readOnly: true },
];

const importFields = doctorCreateFields.omit({ password: true, can_sign_in: true });
type Input = z.infer<typeof importFields>;
type Plan = { row: number; id: number | null; input: Input };

export const doctors: TransferEntity<Input, DoctorRow, Plan> = {
  name: 'doctors',
  label: 'doctor',
  auditEntity: 'doctor',
  columns,
  key: 'email',
  normalizeKey: lowerKey,
  requiredColumns: ['first_name', 'last_name'],
  createSchema: importFields,
  updateSchema: doctorUpdateSchema.omit({ password: true, can_sign_in: true }) as z.ZodType<Partial<Input>>,

  findExisting: (ctx, keys) => doctorRowsByEmails(ctx.db, ctx.organizationId, keys),

  async plan(ctx, rows) {
    const fresh = rows.filter((r) => !r.existing && r.input.email).map((r) => r.input.email!);
    const taken = new Map(
      (await usersByEmails(ctx.db, ctx.organizationId, fresh)).map((u) => [u.email.toLowerCase(), u]),
    );
    return rows.map((r) => {
      const other = !r.existing && r.input.email ? taken.get(r.input.email) : undefined;
      if (other)
        return {
          row: r.row,
          errors: [
            {
              column: 'email',
              message: `${r.input.email} is the sign-in of a user who is not a doctor (${other.role})`,
            },
          ],
        };
      return { row: r.row, plan: { row: r.row, id: r.existing?.id ?? null, input: r.input } };
    });
  },

  async write(ctx, plans) {
    let inserted = 0;
    let updated = 0;
    for (const p of plans) {
      const done = await ctx.attempt(p.row, async () => {
        if (p.id === null)
          await insertDoctor(ctx.db, ctx.actor, { ...p.input, can_sign_in: false } as DoctorCreate, NO_PASSWORD);
        else await applyDoctorUpdate(ctx.db, ctx.actor, p.id, p.input as DoctorUpdate, null);
        return true;
      });
      if (done && p.id === null) inserted += 1;
      else if (done) updated += 1;
    }
    return { inserted, updated };
  },

  filters: { status: oneOf(DOCTOR_STATUSES), specialization: z.string().trim().min(1).max(100) },
  async *exportPages(db, organizationId, q) {
    for (let offset = 0; ; offset += 500) {
      const rows = await doctorRowsAfter(db, organizationId, offset, 500);
      const page = rows
        .map((r) => toDoctor(r))
        .filter((d) => !q.where.status || d.status === q.where.status)
        .filter(
          (d) =>
            !q.where.specialization ||
            (d.specialization ?? '').toLowerCase() === String(q.where.specialization).toLowerCase(),
        )
        .map((d) => recordOf(columns, d));
      if (page.length) yield page;
      if (rows.length < 500) return;
    }
  },
};
