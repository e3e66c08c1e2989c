import type { ReactNode } from 'react';
import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import { Globe, HeartPulse, Monitor, Users } from 'lucide-react';
import { Badge, Button, Card, CardBody, CardHeader, EmptyState, ErrorPanel, ScreenHeader } from '@/components';
import { formatCount } from '@/lib/format';
import { checks } from '../api';
import { DiagnosticsPanel } from '../components/DiagnosticsPanel';

function Latency({ ms }: { ms: number }) {
  return <span className="text-[13px] text-slate-600 tabular-nums">{ms} ms round trip</span>;
}

/**
 * One endpoint tried from this browser: "Test <title>" calls it, then its answer (drawn by
 * `children`), or the "<title> Failed" panel. `flush`: the answer is a list that meets the card's edges.
 */
function ProbeCard<D>({
  title,
  icon,
  path,
  probe,
  flush = false,
  children,
}: {
  title: string;
  icon: ReactNode;
  path: string;
  probe: UseMutationResult<D, Error, void>;
  flush?: boolean | undefined;
  children: (answer: D) => ReactNode;
}) {
  return (
    <Card className="min-w-0">
      <CardHeader
        title={title}
        icon={icon}
        description={path}
        actions={
          <Button size="sm" onClick={() => probe.mutate()} loading={probe.isPending} loadingText="Testing...">
            Test {title}
          </Button>
        }
      />
      <CardBody className={flush ? 'p-0' : undefined}>
        {probe.isError ? (
          <ErrorPanel title={`${title} Failed`} error={probe.error} />
        ) : probe.data ? (
          children(probe.data)
        ) : (
          <p className="text-[13px] text-slate-600">Not tested yet.</p>
        )}
      </CardBody>
    </Card>
  );
}

/** API Connection Test (spec 2.18): the health endpoint, the patients endpoint, the addresses in use. */
export default function ApiConnectionTestPage() {
  const health = useMutation({ mutationFn: checks.health });
  const patients = useMutation({ mutationFn: checks.patients });
  const origin = window.location.origin;

  return (
    <>
      <ScreenHeader />
      <Card className="mb-5">
        <CardHeader
          title="Addresses"
          icon={<Globe />}
          description="This browser talks to the server at the same address it loaded the app from."
        />
        <CardBody>
          <dl className="grid gap-2 text-[13px] sm:grid-cols-2">
            <div>
              <dt className="text-slate-600">Backend API</dt>
              <dd className="font-mono break-all text-slate-900" data-testid="backend-address">
                {origin}/api
              </dd>
            </div>
            <div>
              <dt className="flex items-center gap-1 text-slate-600">
                <Monitor className="size-3.5" aria-hidden="true" /> Frontend
              </dt>
              <dd className="font-mono break-all text-slate-900">{origin}</dd>
            </div>
          </dl>
        </CardBody>
      </Card>

      <div className="mb-5 grid gap-5 lg:grid-cols-2">
        <ProbeCard title="Health Check" icon={<HeartPulse />} path="GET /api/health" probe={health}>
          {({ data, ms }) => (
            <div className="grid gap-2">
              <div className="flex flex-wrap items-center gap-2">
                <Badge status={data.status === 'ok' ? 'success' : 'error'}>
                  {data.status === 'ok' ? 'Healthy' : data.status}
                </Badge>
                <Latency ms={ms} />
              </div>
              <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
                {JSON.stringify(data, null, 2)}
              </pre>
            </div>
          )}
        </ProbeCard>

        <ProbeCard
          title="Patients API"
          icon={<Users />}
          path="GET /api/patients?page=1&limit=5"
          probe={patients}
          flush={patients.data && patients.data.data.patients.length > 0}
        >
          {({ data, ms }) =>
            data.patients.length === 0 ? (
              <EmptyState title="The API answered: no patients registered yet." hint={<Latency ms={ms} />} />
            ) : (
              <>
                <p className="flex flex-wrap items-center gap-2 px-4 pt-3 text-[13px]">
                  <Badge status="success">OK</Badge>
                  First {data.patients.length} of {formatCount(data.total)} patients
                  <Latency ms={ms} />
                </p>
                <ul className="mt-2 divide-y divide-slate-100 border-t border-slate-100">
                  {data.patients.map((p) => (
                    <li
                      key={p.id}
                      className="flex flex-wrap items-baseline justify-between gap-x-3 px-4 py-2 text-[13px]"
                    >
                      <span className="font-medium text-slate-900">
                        {p.first_name} {p.last_name}
                      </span>
                      <span className="text-slate-600 tabular-nums">
                        {p.patient_id}
                        {p.age_text !== null ? ` · ${p.age_text}` : ''}
                        {p.gender ? ` · ${p.gender}` : ''}
                      </span>
                    </li>
                  ))}
                </ul>
              </>
            )
          }
        </ProbeCard>
      </div>

      <DiagnosticsPanel />
    </>
  );
}
