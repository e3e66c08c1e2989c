import { z } from 'zod';
import {
  calibrationCompleteSchema,
  calibrationCreateSchema,
  maintenanceCompleteSchema,
  maintenanceCreateSchema,
  SERVICE_STATUSES,
  type ServiceKind,
} from '../../../shared/schemas/equipment.js';
import { requiredText } from '../../../shared/schemas/common.js';
import { rupeesToPaise } from '../../../shared/money.js';
import { addDays, localDate } from '../../../shared/time.js';
import { insertService, toService, labDay } from '../../equipment/service.js';
import { equipmentRowsBySerials } from '../../equipment/repository.js';
import { serviceRowsAfter } from '../../equipment/service-repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { lowerKey, oneOf, pastInstant } from './common.js';

/**
 * Calibration and maintenance records (the spec's Calibration Import): history brought
 * over from paper or another system, and work still to do. The equipment is named by its serial
 * number. A row with performed_by (or status completed) is done work, stored as done with its
 * performed_at, accuracy (calibration) or cost (maintenance) and next_due (performed day +
 * interval); an import schedules no follow-up record, because the file says what is open. A row
 * without is open: scheduled (overdue is a scheduled record past its date), in_progress or
 * cancelled. Records have no natural key: every row is a new record, --update is refused.
 * Certificates do not travel in a file (their name is exported for information).
 */

const IMPORT_STATUSES = SERVICE_STATUSES;
type Input = {
  equipment_serial_number: string;
  type: string;
  status?: (typeof IMPORT_STATUSES)[number];
  due_date: string;
  interval_days?: number | null;
  description?: string | null;
  performed_by?: string;
  performed_at?: string;
  accuracy?: number | null;
  cost?: number | null;
};
type Plan = { row: number; equipmentId: number; input: Input };

function importSchema(kind: ServiceKind): z.ZodType<Input> {
  const create = kind === 'calibration' ? calibrationCreateSchema : maintenanceCreateSchema;
  const work =
    kind === 'calibration'
      ? { accuracy: calibrationCompleteSchema.shape.accuracy }
      : { cost: maintenanceCompleteSchema.shape.cost };
  return create
    .omit({ equipment_id: true })
    .extend({
      equipment_serial_number: requiredText('Equipment serial number', 80),
      status: z.preprocess(
        (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v),
        z.enum(IMPORT_STATUSES, { error: `Status must be one of ${IMPORT_STATUSES.join(', ')}` }).optional(),
      ),
      performed_by: calibrationCompleteSchema.shape.performed_by.optional(),
      performed_at: pastInstant('Performed at'),
      ...work,
    })
    .superRefine((v, ctx) => {
      const done = v.status === 'completed' || (v.status === undefined && v.performed_by !== undefined);
      if (done && !v.performed_by)
        ctx.addIssue({
          code: 'custom',
          path: ['performed_by'],
          message: 'Performed by is required for completed work',
        });
      if (done && !v.performed_at)
        ctx.addIssue({
          code: 'custom',
          path: ['performed_at'],
          message: 'Performed at is required for completed work (the day it was done)',
        });
      if (!done && v.performed_by)
        ctx.addIssue({
          code: 'custom',
          path: ['status'],
          message: `A record with performed_by is completed work: status must be completed, not ${v.status}`,
        });
    }) as unknown as z.ZodType<Input>;
}

function serviceEntity(kind: ServiceKind, name: string): TransferEntity<Input, never, Plan> {
  const columns: TransferColumn[] = [
    { name: 'equipment_serial_number' },
    { name: 'equipment_name', readOnly: true },
    { name: 'type' },
    { name: 'status' },
    { name: 'due_date', kind: 'date' },
    { name: 'interval_days', kind: 'number' },
    { name: 'performed_by' },
    { name: 'performed_at', kind: 'timestamp' },
    kind === 'calibration' ? { name: 'accuracy', kind: 'number' } : { name: 'cost', kind: 'number' },
    { name: 'description' },
    { name: 'next_due', kind: 'date', readOnly: true },
    ...(kind === 'calibration' ? [{ name: 'certificate', readOnly: true }] : []),
  ];
  return {
    name,
    label: `${kind} record`,
    auditEntity: kind,
    columns,
    key: 'equipment_serial_number',
    normalizeKey: lowerKey,
    // No natural key: a serial number names many records, so every row is a new one.
    keyOf: () => null,
    noUpdate: `${kind} records have no natural key; change one on the ${kind === 'calibration' ? 'Calibration' : 'Maintenance'} screen`,
    requiredColumns: ['equipment_serial_number', 'type', 'due_date'],
    createSchema: importSchema(kind),

    findExisting: async () => new Map<string, never>(),

    async plan(ctx, rows) {
      const serials = [...new Set(rows.map((r) => r.input.equipment_serial_number.toLowerCase()))];
      const found = new Map(
        (await equipmentRowsBySerials(ctx.db, ctx.organizationId, serials)).map((e) => [
          e.serial_number.toLowerCase(),
          e,
        ]),
      );
      return rows.map((r) => {
        const e = found.get(r.input.equipment_serial_number.toLowerCase());
        if (!e)
          return {
            row: r.row,
            errors: [
              {
                column: 'equipment_serial_number',
                message: `${r.input.equipment_serial_number}: no equipment with this serial number is registered (import equipment first)`,
              },
            ],
          };
        return { row: r.row, plan: { row: r.row, equipmentId: e.id, input: r.input } };
      });
    },

    async write(ctx, plans) {
      let inserted = 0;
      for (const p of plans) {
        const i = p.input;
        const done = i.status === 'completed' || (i.status === undefined && i.performed_by !== undefined);
        const base = {
          equipment_id: p.equipmentId,
          type: i.type as never,
          due_date: i.due_date,
          interval_days: i.interval_days ?? null,
          description: i.description ?? null,
        };
        const ok = await ctx.attempt(p.row, () =>
          done
            ? insertService(ctx.db, ctx.actor, kind, base, {
                performed_by: i.performed_by!,
                performed_at: i.performed_at!,
                accuracy: kind === 'calibration' ? (i.accuracy ?? null) : null,
                cost_paise: kind === 'maintenance' && i.cost != null ? rupeesToPaise(i.cost) : null,
                next_due: i.interval_days
                  ? addDays(localDate(ctx.timeZone, new Date(i.performed_at!)), i.interval_days)
                  : null,
              })
            : insertService(
                ctx.db,
                ctx.actor,
                kind,
                base,
                undefined,
                i.status === 'in_progress' || i.status === 'cancelled' ? i.status : 'scheduled',
              ),
        );
        if (ok !== undefined) inserted += 1;
      }
      return { inserted, updated: 0 };
    },

    filters: { status: oneOf(SERVICE_STATUSES), type: z.string().trim().min(1).max(40) },
    dateField: 'due date (due_date)',
    async *exportPages(db, organizationId, q) {
      const { today } = await labDay(db, organizationId);
      for (let offset = 0; ; offset += 500) {
        const rows = await serviceRowsAfter(db, organizationId, kind, today, offset, 500);
        const page = rows
          .map((r) => toService(kind, r, today))
          .filter((s) => (!q.from || s.due_date >= q.from) && (!q.to || s.due_date <= q.to))
          .filter((s) => !q.where.status || s.status === q.where.status)
          .filter((s) => !q.where.type || s.type.toLowerCase() === String(q.where.type).toLowerCase())
          .map((s) => {
            const out: Record<string, unknown> = { ...s, equipment_serial_number: s.serial_number };
            if ('certificate' in s) out.certificate = s.certificate?.file_name ?? null;
            return Object.fromEntries(columns.map((c) => [c.name, out[c.name]]));
          });
        if (page.length) yield page;
        if (rows.length < 500) return;
      }
    },
  };
}

export const calibrations = serviceEntity('calibration', 'calibrations');
export const maintenance = serviceEntity('maintenance', 'maintenance');
