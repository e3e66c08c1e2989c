import type { Db } from '../db/connection.js';
import { organizationTimezone } from '../settings/service.js';
import { addDays, startOfLocalDayUtc } from '../../shared/time.js';
import type { Comparison, ComparisonQuery, DecisionReason, Disagreement } from '../../shared/schemas/autoverify.js';
import { shadowDecisionsBetween } from './repository.js';

/**
 * The shadow comparison: what the rules would have done with each result of a period (lab days,
 * From to To) against what a person did since. A person "released" a result they verified as it
 * was judged; they "held" it when they sent it back, or when the value the rules judged is no
 * longer the one on the result (changed, re-run, amended). Results still waiting are counted apart.
 * The disagreements to study first are the ones the rules would release and a person held.
 */

type Human = Disagreement['human'];

function humanOf(r: {
  status: string;
  result_value: string | null;
  judged_value: string | null;
  amended: number;
}): Human {
  if (r.status === 'rejected' || (r.status !== 'verified' && r.result_value !== r.judged_value)) return 'rejected';
  if (r.amended === 1 || r.result_value !== r.judged_value) return 'amended';
  return r.status === 'verified' ? 'verified' : 'waiting';
}

export async function shadowComparison(db: Db, organizationId: number, q: ComparisonQuery): Promise<Comparison> {
  const tz = await organizationTimezone(db, organizationId);
  const from = startOfLocalDayUtc(tz, q.from).toISOString();
  const to = startOfLocalDayUtc(tz, addDays(q.to, 1)).toISOString();
  const rows = await shadowDecisionsBetween(db, organizationId, from, to, q.rule_set_id);
  let compared = 0;
  let waiting = 0;
  let wouldRelease = 0;
  let humanVerified = 0;
  let agreed = 0;
  const disagreements: Disagreement[] = [];
  for (const r of rows) {
    const human = humanOf(r);
    if (r.decision === 'release') wouldRelease += 1;
    if (human === 'waiting') {
      waiting += 1;
      continue;
    }
    compared += 1;
    const personReleased = human === 'verified';
    if (personReleased) humanVerified += 1;
    if (personReleased === (r.decision === 'release')) {
      agreed += 1;
      continue;
    }
    disagreements.push({
      result_id: r.result_id,
      sample_code: r.sample_code,
      patient_name: r.patient_name ?? '',
      patient_code: r.patient_code,
      test_name: r.test_name,
      value: r.judged_value,
      unit: r.unit,
      kind: r.decision === 'release' ? 'would_release_held' : 'would_hold_released',
      human,
      verified_by_name: personReleased ? r.verified_by_name : null,
      rejection_reason: human === 'rejected' ? r.rejection_reason : null,
      reasons: JSON.parse(r.reasons) as DecisionReason[],
      decided_at: r.decided_at,
    });
  }
  // The ones a person held that the rules would have released come first: they are the risk.
  disagreements.sort((a, b) =>
    a.kind === b.kind ? a.result_id - b.result_id : a.kind === 'would_release_held' ? -1 : 1,
  );
  return {
    from: q.from,
    to: q.to,
    compared,
    waiting,
    would_release: wouldRelease,
    would_hold: rows.length - wouldRelease,
    human_verified: humanVerified,
    human_held: compared - humanVerified,
    agreed,
    agreement_percent: compared ? Math.round((agreed / compared) * 1000) / 10 : null,
    disagreements,
  };
}
