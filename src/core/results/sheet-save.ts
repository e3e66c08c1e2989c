import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { DomainError, NotFoundError, ValidationError } from '../errors.js';
import { resultCode, type TestResult } from '../../shared/schemas/results.js';
import type { ResultSheetSave } from '../../shared/schemas/result-sheet-save.js';
import { findSampleRow } from '../samples/repository.js';
import { orderedTests, ownResultRow } from './entry-repository.js';
import { changeResult, enterResult } from './entry.js';
import { getResult } from './service.js';

/**
 * Saves a sample's result sheet in one transaction: every row is stored, or none. A sheet saved a
 * row at a time was left half saved when the page closed or the network dropped between rows.
 * Each row takes the one path a single result takes (enterResult, changeResult), so flags,
 * critical values, consumption and calculations are the same. Every row is tried, so the answer
 * names the problem of each bad row (`rows.<i>.<field>`, with the test's name), not the first only.
 */
export async function saveResultSheet(
  db: Db,
  actor: Actor,
  sampleId: number,
  body: ResultSheetSave,
): Promise<TestResult[]> {
  const ids = await db.transaction().execute(async (trx) => {
    const sample = await findSampleRow(trx, actor.organizationId, { id: sampleId });
    if (!sample) throw new NotFoundError('Sample', sampleId);
    const ordered = new Map((await orderedTests(trx, sample.id)).map((t) => [t.id, t]));
    const problems: { path: string; message: string }[] = [];
    const saved: number[] = [];
    const seen = new Set<number>();
    for (const [i, row] of body.rows.entries()) {
      const test = ordered.get(row.test_id);
      const at = (field: string, message: string) =>
        problems.push({ path: `rows.${i}.${field}`, message: `${test?.name ?? `Test ${row.test_id}`}: ${message}` });
      if (!test) {
        at('test_id', `test ${row.test_id} is not ordered on sample ${sample.sample_code}`);
        continue;
      }
      if (seen.has(row.test_id)) {
        at('test_id', 'appears twice on the sheet');
        continue;
      }
      seen.add(row.test_id);
      try {
        const { test_id, result_id, ...change } = row;
        if (result_id !== undefined) {
          const before = await ownResultRow(trx, actor.organizationId, result_id);
          if (!before || before.sample_id !== sample.id || before.test_id !== test_id) {
            at('result_id', `${resultCode(result_id)} is not this sample's result of the test`);
            continue;
          }
          await changeResult(trx, actor, result_id, change);
          saved.push(result_id);
        } else {
          saved.push(
            await enterResult(trx, actor, {
              sample_id: sample.id,
              test_id,
              result_value: change.result_value,
              structured: change.structured,
              unit: change.unit,
              notes: change.notes,
              equipment_id: body.equipment_id,
            }),
          );
        }
      } catch (err) {
        // A rule of the row (a value out of its type, a closed sample): named, and the others tried.
        // Anything else (the database failing) ends the save at once.
        if (!(err instanceof DomainError) || err.statusCode >= 500) throw err;
        const field = err.details?.[0]?.path ?? 'result_value';
        at(field, err.details?.[0]?.message ?? err.message);
      }
    }
    if (problems.length)
      throw new ValidationError(
        `${problems.length === 1 ? 'One result' : `${problems.length} results`} of the sheet could not be saved, so none was: ${problems.map((p) => p.message).join('; ')}`,
        problems,
      );
    return saved;
  });
  return Promise.all(ids.map((id) => getResult(db, actor.organizationId, id)));
}
