import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { nowIso } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { evaluateFormula, parseFormula } from '../../shared/formula.js';
import { formatCalculated } from '../../shared/resultTypes.js';
import { findSampleRow } from '../samples/repository.js';
import { announceCritical } from './announce.js';
import { evaluateValue } from './evaluate.js';
import { deleteResultRow, orderedTests, resultOf } from './entry-repository.js';
import { sampleValues, applyChange, insertEnteredResult } from './entry.js';

/**
 * Works out the calculated tests of a sample from its other results (chains too: LDL/HDL uses the
 * calculated LDL). A calculated value that changes after verification is amended with the reason.
 * A stored calculated value whose inputs no longer allow it (an input removed) is removed if unverified.
 */
export async function recalculate(trx: Db, actor: Actor, sampleId: number): Promise<void> {
  const tests = await orderedTests(trx, sampleId);
  const calculated = tests.filter((t) => t.result_type === 'calculated' && t.formula);
  if (!calculated.length) return;
  const sample = (await findSampleRow(trx, actor.organizationId, { id: sampleId }))!;
  // A chain is at most as deep as the number of calculated tests; each pass settles one level.
  for (let pass = 0; pass < calculated.length; pass++) {
    let changed = false;
    const vars = await sampleValues(trx, sampleId, tests);
    for (const t of calculated) {
      const existing = await resultOf(trx, sampleId, t.id);
      if (existing && !existing.calculated) continue; // measured directly: the lab's value stands
      const outcome = evaluateFormula(parseFormula(t.formula!), vars);
      if (!outcome.ok) {
        if (existing && existing.status !== 'verified') {
          await deleteResultRow(trx, existing.id);
          await writeAudit(trx, actor, {
            action: 'delete',
            entity: 'test_result',
            entityId: existing.id,
            oldValues: existing,
          });
          changed = true;
        }
        continue;
      }
      const value = formatCalculated(outcome.value, t.decimals);
      if (existing?.result_value === value) continue;
      const judged = await evaluateValue(trx, t, sample.patient_id, sampleId, sample.collection_date, value);
      changed = true;
      if (existing) {
        const reason =
          existing.status === 'verified' ? `Recalculated: a result it uses (${t.formula}) was changed` : null;
        await applyChange(trx, actor, existing, { value, unit: existing.unit, notes: existing.notes, reason }, judged, {
          sample,
          testName: t.name,
        });
        continue;
      }
      const row = await insertEnteredResult(trx, actor, nowIso(), {
        sample_id: sampleId,
        test_id: t.id,
        patient_id: sample.patient_id,
        result_value: value,
        unit: t.unit,
        ...judged,
        notes: null,
        calculated: 1,
      });
      if (row.is_critical) await announceCritical(trx, actor, sample, t.name);
    }
    if (!changed) return;
  }
}
