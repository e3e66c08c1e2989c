import { z } from 'zod';
import {
  EQUIPMENT_KINDS,
  EQUIPMENT_SET_STATUSES,
  equipmentCreateSchema,
  equipmentUpdateSchema,
  type EquipmentCreate,
  type EquipmentUpdate,
} from '../../../shared/schemas/equipment.js';
import { applyEquipmentUpdate, insertEquipment } from '../../equipment/service.js';
import { equipmentRowsAfter, equipmentRowsBySerials } from '../../equipment/repository.js';
import type { TransferColumn, TransferEntity } from '../entity.js';
import { keyedWrites, lowerKey, oneOf, recordOf, type KeyedPlan } from './common.js';

/**
 * The equipment register: machines and instruments, keyed by serial number (unique in
 * the lab, case ignored). `status` is the status staff set (calibration_due is computed from the
 * calibrations, so an export never carries it). Registering writes the first status-history row,
 * as the screen does.
 */

const columns: TransferColumn[] = [
  { name: 'serial_number' },
  { name: 'kind' },
  { name: 'name' },
  { name: 'model' },
  { name: 'type' },
  { name: 'location' },
  { name: 'status' },
  { name: 'installed_on', kind: 'date' },
  { name: 'supplier' },
  { name: 'warranty_end', kind: 'date' },
  { name: 'min_temperature', kind: 'number' },
  { name: 'max_temperature', kind: 'number' },
  { name: 'min_humidity', kind: 'number' },
  { name: 'max_humidity', kind: 'number' },
  { name: 'notes' },
];

type Existing = Awaited<ReturnType<typeof equipmentRowsBySerials>>[number];
type Plan = KeyedPlan<EquipmentCreate>;

export const equipment: TransferEntity<EquipmentCreate, Existing, Plan> = {
  name: 'equipment',
  label: 'equipment',
  auditEntity: 'equipment',
  columns,
  key: 'serial_number',
  normalizeKey: lowerKey,
  requiredColumns: ['serial_number', 'kind', 'name'],
  createSchema: equipmentCreateSchema as unknown as z.ZodType<EquipmentCreate>,
  updateSchema: equipmentUpdateSchema as unknown as z.ZodType<Partial<EquipmentCreate>>,

  async findExisting(ctx, keys) {
    const rows = await equipmentRowsBySerials(ctx.db, ctx.organizationId, keys);
    return new Map(rows.map((r) => [r.serial_number.toLowerCase(), r]));
  },

  // The kind stays as registered (the API's update has no kind): on --update a kind cell is not read.
  ...keyedWrites<EquipmentCreate>(
    'serial_number',
    (ctx, input) => insertEquipment(ctx.db, ctx.actor, input),
    (ctx, id, input) => applyEquipmentUpdate(ctx.db, ctx.actor, id, input as EquipmentUpdate),
  ),

  filters: {
    kind: oneOf(EQUIPMENT_KINDS),
    status: oneOf(EQUIPMENT_SET_STATUSES),
    location: z.string().trim().min(1).max(120),
  },
  async *exportPages(db, organizationId, q) {
    for (let offset = 0; ; offset += 500) {
      const rows = await equipmentRowsAfter(db, organizationId, offset, 500);
      const page = rows
        .filter((e) => !q.where.kind || e.kind === q.where.kind)
        .filter((e) => !q.where.status || e.status === q.where.status)
        .filter((e) => !q.where.location || (e.location ?? '').toLowerCase() === String(q.where.location).toLowerCase())
        .map((e) => recordOf(columns, e));
      if (page.length) yield page;
      if (rows.length < 500) return;
    }
  },
};
