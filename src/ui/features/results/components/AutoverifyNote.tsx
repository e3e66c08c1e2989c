import { BadgeCheck, Hourglass } from 'lucide-react';
import type { AutoverifyDecision } from '@shared/schemas/autoverify';
import type { TestResult } from '@shared/schemas/results';
import { DateText } from '@/components';
import { cn } from '@/lib/cn';

/** "Autoverification rule set v3 (approved by Dr X)" as a released result names its verifier. */
export function autoverifiedLine(autoverifiedBy: string): string {
  return autoverifiedBy.replace(/^Autoverification rule set/, 'Autoverified by rule set');
}

/** What held it, in the validator's words: the failed conditions' texts. */
export function heldBy(d: AutoverifyDecision): string {
  const failed = d.reasons.filter((r) => !r.passed).map((r) => r.text);
  return failed.length ? failed.join('; ') : 'held';
}

/**
 * A result's latest autoverification decision in one line, where people work on it: released by
 * the rules (naming the version and its approver), held with the reasons, or what a shadow run
 * would have done. Nothing when the rules never judged it.
 */
export function AutoverifyNote({
  r,
  decision,
  className,
}: {
  r: Pick<TestResult, 'autoverified_by' | 'status'>;
  decision: AutoverifyDecision | undefined;
  className?: string;
}) {
  if (r.autoverified_by && r.status === 'verified')
    return (
      <span className={cn('flex items-start gap-1 text-xs text-green-800', className)}>
        <BadgeCheck className="mt-px size-3.5 shrink-0" aria-hidden="true" />
        {autoverifiedLine(r.autoverified_by)}
      </span>
    );
  if (!decision) return null;
  if (decision.mode === 'shadow')
    return (
      <span className={cn('text-xs text-slate-600', className)}>
        Shadow v{decision.version}:{' '}
        {decision.decision === 'release' ? 'would release' : `would hold (${heldBy(decision).replace(/^held: /, '')})`}
      </span>
    );
  if (decision.decision === 'hold')
    return (
      <span className={cn('flex items-start gap-1 text-xs text-amber-900', className)}>
        <Hourglass className="mt-px size-3.5 shrink-0" aria-hidden="true" />
        <span>
          {heldBy(decision)} <span className="text-slate-600">(rule set v{decision.version})</span>
        </span>
      </span>
    );
  return null;
}

/** Every decision the rules took on a result, each with its reasons: the review dialog's history. */
export function DecisionHistory({ decisions }: { decisions: AutoverifyDecision[] }) {
  if (!decisions.length) return null;
  return (
    <section aria-label="Autoverification decisions" className="grid gap-2">
      <h3 className="font-medium text-slate-900">Autoverification</h3>
      <ol className="grid gap-2">
        {[...decisions].reverse().map((d) => (
          <li key={d.id} className="rounded-md border border-slate-200 p-2.5">
            <p className="flex flex-wrap items-baseline gap-x-2">
              <span className={cn('font-medium', d.decision === 'release' ? 'text-green-800' : 'text-amber-900')}>
                {d.mode === 'shadow'
                  ? `Shadow: would ${d.decision}`
                  : d.released
                    ? 'Released by the rules'
                    : 'Held for a person'}
              </span>
              <span className="text-slate-600">
                rule set v{d.version}, <DateText value={d.decided_at} withTime />
              </span>
            </p>
            <ul className="mt-1 grid gap-0.5">
              {d.reasons.map((x) => (
                <li key={x.rule + x.text} className={x.passed ? 'text-slate-700' : 'text-red-800'}>
                  <span aria-hidden="true">{x.passed ? '✓ ' : '✗ '}</span>
                  <span className="sr-only">{x.passed ? 'Passed: ' : 'Failed: '}</span>
                  {x.text}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </section>
  );
}
