import { ArrowLeft, CheckCircle2, GitCompare, Percent, UserCheck } from 'lucide-react';
import { addDays, localDate } from '@shared/time';
import {
  Card,
  CardBody,
  DateRangeFields,
  ErrorPanel,
  LinkButton,
  ScreenHeader,
  Select,
  FormField,
  SummaryCards,
  rangeIsBackwards,
} from '@/components';
import { useLabFormat, formatCount } from '@/lib/format';
import { useUrlState } from '@/lib/useUrlState';
import { useComparison, useRuleSets, versionName } from '../api';
import { DisagreementList } from '../components/DisagreementList';

/**
 * The shadow comparison: for a period, what the rules would have released against what the
 * validators did, and every disagreement, the results the rules would have released and a person
 * held first (the risk to study before going live).
 */
export default function ShadowComparisonPage() {
  const today = localDate(useLabFormat().timeZone);
  const [q, set] = useUrlState({ from: addDays(today, -6), to: today, rule_set: '' });
  const ruleSets = useRuleSets();
  const backwards = rangeIsBackwards(q.from, q.to);
  const ready = q.from !== '' && q.to !== '' && !backwards;
  const comparison = useComparison(
    { from: q.from, to: q.to, ...(q.rule_set ? { rule_set_id: Number(q.rule_set) } : {}) },
    ready,
  );
  const c = comparison.data;
  const riskRows = c?.disagreements.filter((d) => d.kind === 'would_release_held') ?? [];
  const otherRows = c?.disagreements.filter((d) => d.kind === 'would_hold_released') ?? [];
  const approved = (ruleSets.data ?? []).filter((r) => r.status === 'approved');
  return (
    <>
      <ScreenHeader
        actions={
          <LinkButton variant="outline" to="/autoverification">
            <ArrowLeft />
            Autoverification
          </LinkButton>
        }
      />
      <Card className="mb-5">
        <CardBody className="grid gap-3 sm:flex sm:flex-wrap sm:items-start">
          <DateRangeFields from={q.from} to={q.to} onChange={(r) => set(r, { replace: true })} />
          <FormField label="Rule set" className="sm:w-64">
            <Select
              options={[
                { value: '', label: 'Every version run in shadow' },
                ...approved.map((r) => ({ value: String(r.id), label: versionName(r) })),
              ]}
              value={q.rule_set}
              onChange={(e) => set({ rule_set: e.target.value })}
            />
          </FormField>
        </CardBody>
      </Card>
      {comparison.isError ? (
        <ErrorPanel title="Error Loading the Comparison" query={comparison} retryLabel="Retry" />
      ) : (
        <>
          <SummaryCards
            label="Comparison figures"
            loading={ready && comparison.isPending}
            cards={[
              {
                label: 'Compared',
                icon: <GitCompare />,
                value: c && formatCount(c.compared),
                hint: c && `${formatCount(c.waiting)} still waiting for a person, not compared`,
              },
              {
                label: 'Rules would release',
                icon: <CheckCircle2 />,
                value: c && formatCount(c.would_release),
                hint: c && `${formatCount(c.would_hold)} would be held`,
              },
              {
                label: 'Validators released',
                icon: <UserCheck />,
                value: c && formatCount(c.human_verified),
                hint: c && `${formatCount(c.human_held)} held (sent back or changed)`,
              },
              {
                label: 'Agreement',
                icon: <Percent />,
                value: c && (c.agreement_percent === null ? '—' : `${c.agreement_percent.toFixed(1)}%`),
                hint:
                  c &&
                  (c.agreement_percent === null
                    ? 'Nothing compared yet'
                    : `${formatCount(c.agreed)} of ${formatCount(c.compared)} the same`),
              },
            ]}
          />
          {c && (
            <div className={comparison.isPlaceholderData ? 'opacity-60' : undefined}>
              <DisagreementList
                title="Rules would release, a person held"
                description="The ones to study before going live: the rules would have released these without a person."
                rows={riskRows}
                tone="red"
              />
              <DisagreementList
                title="Rules would hold, a person released"
                description="Results a validator released that the rules would have kept for a person: where the rules are stricter."
                rows={otherRows}
                tone="amber"
              />
            </div>
          )}
        </>
      )}
    </>
  );
}
