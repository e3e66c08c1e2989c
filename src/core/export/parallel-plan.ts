/**
 * What an entity gives the parallel CSV export (src/core/transfer/parallel.ts): plain data a worker
 * thread can receive. Here, beside the CSV writer, so a feature describes its export without
 * importing the transfer engine.
 */

/** How an entity's rows are completed after the database read them (the worker knows these by name). */
export type RowFinish = { kind: 'patients'; today: string; age: number; estimated: number };

/** A compiled query and where a key range's bounds go among its parameters. */
export interface RangeQuery {
  sql: string;
  parameters: unknown[];
  hiAt: number;
  loAt: number;
}

/** What an entity gives for a parallel export (TransferEntity.exportParallel). */
export interface ParallelExportPlan {
  /** The rows of one key range (key < hi, key >= lo) in the export's order, as the columns' values. */
  rows: RangeQuery;
  /** The key `offset` rows below hi among all the rows the walk could read (the ranges' bounds). */
  step: RangeQuery & { offsetAt: number };
  finish: RowFinish;
}
