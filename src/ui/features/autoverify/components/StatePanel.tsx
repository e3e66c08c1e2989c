import { OctagonX, PlayCircle, ShieldAlert } from 'lucide-react';
import type { AutoverifyState, AutoverifyStop, RuleSet } from '@shared/schemas/autoverify';
import { Badge, Button, Card, CardBody, CardHeader, DateText, ErrorPanel, LoadingState } from '@/components';
import { modeName } from '../ruleSetState';

export interface StatePanelProps {
  state: AutoverifyState | undefined;
  ruleSets: RuleSet[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  canStop: boolean;
  canResume: boolean;
  onStopLab: () => void;
  onStopTest: () => void;
  onResume: (stop: AutoverifyStop) => void;
}

function nameOf(ruleSets: RuleSet[] | undefined, id: number, version: number) {
  const r = ruleSets?.find((x) => x.id === id);
  return r ? `${r.name} v${r.version}` : `v${version}`;
}

/** What autoverification does now: the version in force and how, the next one, and the stops with their switches. */
export function StatePanel(p: StatePanelProps) {
  if (p.loading) return <LoadingState />;
  if (p.error || !p.state)
    return <ErrorPanel title="Error Loading Autoverification" error={p.error} onRetry={p.onRetry} retryLabel="Retry" />;
  const { in_force, scheduled, stops } = p.state;
  const labStop = stops.find((s) => s.test_id === null);
  const testStops = stops.filter((s) => s.test_id !== null);
  return (
    <Card className="mb-5">
      <CardHeader
        title="Now"
        icon={<ShieldAlert />}
        description="Every stored result is judged by the version in force; a stop holds the very next result."
        actions={
          p.canStop && (
            <span className="hidden gap-2 sm:flex">
              <StopButtons {...p} labStopped={!!labStop} />
            </span>
          )
        }
      />
      <CardBody className="grid gap-3 text-sm">
        {labStop && (
          <div
            role="status"
            className="flex flex-wrap items-start gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-red-900"
          >
            <OctagonX className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p className="min-w-0 flex-1">
              <span className="font-semibold">Stopped for the lab</span> by {labStop.stopped_by_name ?? 'a user'},{' '}
              <DateText value={labStop.stopped_at} withTime />: {labStop.reason}. Every result waits for a person.
            </p>
            {p.canResume && (
              <Button size="sm" variant="outline" onClick={() => p.onResume(labStop)}>
                <PlayCircle />
                Resume for the Lab
              </Button>
            )}
          </div>
        )}
        <dl className="grid gap-2 sm:grid-cols-[10rem_1fr]">
          <dt className="text-slate-600">In force</dt>
          <dd className="text-slate-900">
            {in_force ? (
              <>
                <Badge tone={in_force.mode === 'live' ? 'green' : 'blue'}>
                  {in_force.mode === 'live' ? 'Live' : 'Shadow'}
                </Badge>{' '}
                {nameOf(p.ruleSets, in_force.rule_set_id, in_force.version)} since{' '}
                <DateText value={in_force.active_from} withTime />
                {in_force.mode === 'shadow' && ': judging, releasing nothing'}
              </>
            ) : (
              'No rule set: every result waits for a person'
            )}
          </dd>
          <dt className="text-slate-600">Next</dt>
          <dd className="text-slate-900">
            {scheduled ? (
              <>
                {nameOf(p.ruleSets, scheduled.rule_set_id, scheduled.version)} in {modeName(scheduled.mode)} mode from{' '}
                <DateText value={scheduled.active_from} withTime />
              </>
            ) : (
              'Nothing scheduled'
            )}
          </dd>
          <dt className="text-slate-600">Tests stopped</dt>
          <dd className="text-slate-900">
            {testStops.length === 0 ? (
              'None'
            ) : (
              <ul className="grid gap-1.5">
                {testStops.map((s) => (
                  <li key={s.id} className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <Badge tone="red">Stopped</Badge>
                    <span className="font-medium">{s.test_name}</span>
                    <span className="text-slate-600">
                      by {s.stopped_by_name ?? 'a user'}, <DateText value={s.stopped_at} withTime />: {s.reason}
                    </span>
                    {p.canResume && (
                      <Button size="sm" variant="outline" onClick={() => p.onResume(s)}>
                        Resume {s.test_name}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        {p.canStop && (
          <div className="flex flex-wrap gap-2 sm:hidden">
            <StopButtons {...p} labStopped={!!labStop} />
          </div>
        )}
      </CardBody>
    </Card>
  );
}

function StopButtons({ onStopLab, onStopTest, labStopped }: StatePanelProps & { labStopped: boolean }) {
  return (
    <>
      <Button size="sm" variant="outline" onClick={onStopTest}>
        Stop a Test
      </Button>
      {!labStopped && (
        <Button size="sm" variant="destructive" onClick={onStopLab}>
          <OctagonX />
          Stop for the Lab
        </Button>
      )}
    </>
  );
}
