import type { Db } from '../db/connection.js';
import type { ImportContext, PlanStage } from './entity.js';
import type { ImportOptions, ImportResult } from './import-types.js';
import { Cancelled, type Spooled } from './passes.js';
import { PlanSpool } from './spool.js';
import { tmpdir } from 'node:os';

export interface Staged {
  stage: PlanStage<unknown>;
  /** The planned rows the stage did not take, for the store pass. */
  rest: PlanSpool;
}

/**
 * Between the check pass and the store pass of an entity with a stage (entity.ts, PlanStage): the
 * planned rows are staged batch by batch without the write lock, and the rows the stage does not
 * take go on to a second spool for the store pass. Cancelling drops what was staged.
 */
export async function stagePlans(
  db: Db,
  ctx: ImportContext,
  opts: ImportOptions,
  spool: PlanSpool,
  result: ImportResult,
): Promise<Staged | null> {
  if (!opts.entity.stage) return null;
  const stage = (await opts.entity.stage(ctx)) as PlanStage<unknown>;
  const rest = PlanSpool.create(opts.spoolDir ?? tmpdir());
  try {
    let staged = 0;
    let lastProgress = 0;
    for (const batch of spool.read() as Generator<Spooled[]>) {
      if (opts.signal?.aborted) throw new Cancelled();
      const others = await stage.add(db, batch);
      const byRow = new Map(batch.map((p) => [p.row, p]));
      rest.append(others.map((o) => byRow.get(o.row)!));
      staged += batch.length - others.length;
      if (staged - lastProgress >= 1000) {
        lastProgress = staged;
        opts.onProgress?.({ processed: result.rows, errors: 0, bytes: 1, fileSize: 1, stored: staged });
      }
    }
    await stage.ready(db);
    return { stage, rest };
  } catch (err) {
    rest.remove();
    await stage.drop(db);
    throw err;
  }
}
