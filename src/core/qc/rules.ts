import type { Db } from '../db/connection.js';
import type { Actor } from '../context.js';
import { writeAudit } from '../audit/audit.js';
import { NotFoundError } from '../errors.js';
import { DEFAULT_QC_RULES, WESTGARD_RULES, type WestgardRule } from '../../shared/westgard.js';
import { setTestQcRules, testQcRules } from './repository.js';

/** The Westgard rules a test's QC is judged by: the lab's choice for the test, else the classic set. */
export async function rulesOfTest(db: Db, organizationId: number, testId: number): Promise<WestgardRule[]> {
  const t = await testQcRules(db, organizationId, testId);
  if (!t?.qc_rules) return [...DEFAULT_QC_RULES];
  const chosen = JSON.parse(t.qc_rules) as string[];
  return WESTGARD_RULES.filter((r) => chosen.includes(r));
}

export async function getTestRules(db: Db, organizationId: number, testId: number) {
  const t = await testQcRules(db, organizationId, testId);
  if (!t) throw new NotFoundError('Test', testId);
  return { test_id: t.id, test_name: t.name, rules: await rulesOfTest(db, organizationId, testId) };
}

/** Sets the rules of a test (audited with the old and new set). */
export async function setTestRules(db: Db, actor: Actor, testId: number, rules: WestgardRule[]) {
  return db.transaction().execute(async (trx) => {
    const before = await getTestRules(trx, actor.organizationId, testId);
    const ordered = WESTGARD_RULES.filter((r) => rules.includes(r));
    await setTestQcRules(trx, testId, JSON.stringify(ordered));
    await writeAudit(trx, actor, {
      action: 'update',
      entity: 'test',
      entityId: testId,
      oldValues: { qc_rules: before.rules },
      newValues: { qc_rules: ordered },
    });
    return { ...before, rules: ordered };
  });
}
