import type { Generated } from 'kysely';

/** Kysely type of the saved column mappings (migration 016_data_mappings). */
export interface DataMappingsTable {
  id: Generated<number>;
  organization_id: number;
  entity: string;
  name: string;
  /** JSON: {"their header": "our_column" | null}. */
  mapping: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    data_mappings: DataMappingsTable;
  }
}
