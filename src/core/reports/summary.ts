import type { Db } from '../db/connection.js';
import { workloadByTest, type Window } from './repository.js';
import { billedByTest } from './bills-repository.js';
import { freshPlan } from './rollups/days.js';
import { billedRollup, workloadRollup } from './rollups/read.js';

/**
 * The reports that read a rollup at a year (revenue by test, workload; turnaround in turnaround.ts):
 * a period's fresh whole lab days before today from the rollups, the rest (its edges, today, stale
 * days) from the rows with the query the rollup is the sum of, added together. The answer is the
 * one the rows give.
 */

export const num = (v: unknown) => Number(v ?? 0);
const maxText = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : b > a ? b : a);

/**
 * The rows of several parts (edges and summaries) folded into one row per key, in the order the keys
 * first come: a key's first row is kept with `first`'s columns over it (its id as a number) and each of
 * `sums` as a number; a later row adds its `sums` to it and `combine` merges its other columns.
 */
export function mergeSums<R extends object, K extends keyof R>(
  rows: R[],
  keyOf: (r: R) => string | number,
  sums: readonly K[],
  first: (r: R) => Partial<R>,
  combine?: (into: R, r: R) => void,
): R[] {
  const out = new Map<string | number, R>();
  for (const r of rows) {
    const key = keyOf(r);
    const e = out.get(key);
    if (!e) {
      const row: R = { ...r, ...first(r) };
      for (const c of sums) row[c] = num(r[c]) as R[K];
      out.set(key, row);
    } else {
      combine?.(e, r);
      for (const c of sums) e[c] = (num(e[c]) + num(r[c])) as R[K];
    }
  }
  return [...out.values()];
}

/** A nullable id column as a number (SQL drivers may give it as text). */
const idOrNull = (v: number | null) => (v === null ? null : Number(v));

export type BilledByTestRow = Awaited<ReturnType<typeof billedByTest>>[number];

/** billedByTest for any period. */
export async function billedByTestSummed(db: Db, w: Window): Promise<BilledByTestRow[]> {
  const plan = await freshPlan(db, w.organizationId, w.fromUtc, w.toUtc);
  const parts: BilledByTestRow[][] = await Promise.all(plan.raw.map((e) => billedByTest(db, { ...w, ...e })));
  parts.push(await billedRollup(db, w.organizationId, plan.runs));
  return mergeSums(
    parts.flat(),
    (r) => {
      const testId = idOrNull(r.test_id);
      return `${r.item_type}\u0000${testId ?? ''}\u0000${testId === null ? r.name : ''}`;
    },
    ['count', 'total_paise'],
    (r) => ({ test_id: idOrNull(r.test_id) }),
    (e, r) => {
      e.name = maxText(e.name, r.name)!;
      e.category = maxText(e.category, r.category);
    },
  );
}

export type WorkloadRow = Awaited<ReturnType<typeof workloadByTest>>[number];

/** workloadByTest for any period. */
export async function workloadByTestSummed(db: Db, w: Window): Promise<WorkloadRow[]> {
  const plan = await freshPlan(db, w.organizationId, w.fromUtc, w.toUtc);
  const parts: WorkloadRow[][] = await Promise.all(plan.raw.map((e) => workloadByTest(db, { ...w, ...e })));
  parts.push(
    (await workloadRollup(db, w.organizationId, plan.runs)).map((r) => ({
      test_id: r.test_id,
      test_name: r.test_name,
      category: r.category,
      ordered: r.ordered,
      resulted: r.resulted,
      verified: r.verified,
      rejected: r.rejected,
    })),
  );
  return mergeSums(
    parts.flat(),
    (r) => Number(r.test_id),
    ['ordered', 'resulted', 'verified', 'rejected'],
    (r) => ({ test_id: Number(r.test_id) }),
  ).filter((r) => num(r.ordered) > 0);
}
