import type { Generated } from 'kysely';

/** Kysely table types of Equipment (migration 018). Timestamps are ISO-8601 UTC strings; money is integer paise. */

export interface EquipmentTable {
  id: Generated<number>;
  organization_id: number;
  kind: string;
  name: string;
  model: string | null;
  serial_number: string;
  type: string | null;
  location: string | null;
  /** What staff set: operational, maintenance, error, offline (calibration_due is computed). */
  status: string;
  installed_on: string | null;
  supplier: string | null;
  warranty_end: string | null;
  min_temperature: number | null;
  max_temperature: number | null;
  min_humidity: number | null;
  max_humidity: number | null;
  notes: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface EquipmentStatusHistoryTable {
  id: Generated<number>;
  organization_id: number;
  equipment_id: number;
  status: string;
  previous_status: string | null;
  reason: string | null;
  changed_by: number | null;
  changed_at: string;
}

export interface EquipmentReadingsTable {
  id: Generated<number>;
  organization_id: number;
  equipment_id: number;
  temperature: number | null;
  humidity: number | null;
  out_of_range: number;
  notes: string | null;
  recorded_by: number | null;
  recorded_at: string;
  created_at: string;
}

export interface EquipmentFilesTable {
  id: Generated<number>;
  organization_id: number;
  file_name: string;
  content_type: string;
  size: number;
  data: Buffer;
  uploaded_by: number | null;
  uploaded_at: string;
}

export interface EquipmentServicesTable {
  id: Generated<number>;
  organization_id: number;
  equipment_id: number;
  kind: string;
  type: string;
  /** scheduled, in_progress, completed, cancelled (overdue is computed from due_date). */
  status: string;
  due_date: string;
  interval_days: number | null;
  performed_by: string | null;
  performed_at: string | null;
  accuracy: number | null;
  cost_paise: number | null;
  description: string | null;
  next_due: string | null;
  certificate_id: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** Merged into the database type (src/core/db/schema.ts) wherever this module is compiled. */
declare module '../db/schema.js' {
  interface DB {
    equipment: EquipmentTable;
    equipment_status_history: EquipmentStatusHistoryTable;
    equipment_readings: EquipmentReadingsTable;
    equipment_files: EquipmentFilesTable;
    equipment_services: EquipmentServicesTable;
  }
}
