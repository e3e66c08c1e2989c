/** Kysely table types of the print snapshots (migration 41). Timestamps are ISO-8601 UTC strings. */
import type { Generated } from 'kysely';

export interface PrintSnapshotsTable {
  id: Generated<number>;
  organization_id: number;
  /** 'report' (entity: a sample) or 'bill'. */
  kind: string;
  entity_id: number;
  /** 1 for the first release; an amended report released again is the next version. */
  version: number;
  taken_at: string;
  /** JSON: what the document printed at that moment (see snapshots.ts). */
  content: string;
}

export interface PrintImagesTable {
  organization_id: number;
  /** SHA-256 of the image's bytes, hex: the same signature is kept once however many reports print it. */
  digest: string;
  mime: string;
  data_base64: string;
  created_at: string;
}

declare module '../db/schema.js' {
  interface DB {
    print_snapshots: PrintSnapshotsTable;
    print_images: PrintImagesTable;
  }
}
