import { useMutation } from '@tanstack/react-query';
import { Globe, HeartPulse, Monitor, Users } from 'lucide-react';
import { Badge, Button, Card, CardBody, CardHeader, EmptyState, ErrorPanel, PageHeader } from '@/components';
import { useScreen } from '@/lib/screens';
import { formatCount } from '@/lib/format';
import { checks } from '../api';
import { DiagnosticsPanel } from '../components/DiagnosticsPanel';

function Latency({ ms }: { ms: number }) {
  return <span className="text-[13px] text-slate-600 tabular-nums">{ms} ms round trip</span>;
}

/** API Connection Test (spec 2.18): the health endpoint, the patients endpoint, the addresses in use. */
export default function ApiConnectionTestPage() {
  const screen = useScreen();
  const health = useMutation({ mutationFn: checks.health });
  const patients = useMutation({ mutationFn: checks.patients });
  const origin = window.location.origin;

  return (
    <>
      <PageHeader title={screen.title} subtitle={screen.subtitle} />
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
        <Card className="min-w-0">
          <CardHeader
            title="Health Check"
            icon={<HeartPulse />}
            description="GET /api/health"
            actions={
              <Button size="sm" onClick={() => health.mutate()} loading={health.isPending} loadingText="Testing...">
                Test Health Check
              </Button>
            }
          />
          <CardBody>
            {health.isError ? (
              <ErrorPanel title="Health Check Failed" error={health.error} />
            ) : health.data ? (
              <div className="grid gap-2">
                <div className="flex flex-wrap items-center gap-2">
                  <Badge status={health.data.data.status === 'ok' ? 'success' : 'error'}>
                    {health.data.data.status === 'ok' ? 'Healthy' : health.data.data.status}
                  </Badge>
                  <Latency ms={health.data.ms} />
                </div>
                <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100">
                  {JSON.stringify(health.data.data, null, 2)}
                </pre>
              </div>
            ) : (
              <p className="text-[13px] text-slate-600">Not tested yet.</p>
            )}
          </CardBody>
        </Card>

        <Card className="min-w-0">
          <CardHeader
            title="Patients API"
            icon={<Users />}
            description="GET /api/patients?page=1&limit=5"
            actions={
              <Button size="sm" onClick={() => patients.mutate()} loading={patients.isPending} loadingText="Testing...">
                Test Patients API
              </Button>
            }
          />
          <CardBody className={patients.data && patients.data.data.patients.length > 0 ? 'p-0' : undefined}>
            {patients.isError ? (
              <ErrorPanel title="Patients API Failed" error={patients.error} />
            ) : patients.data ? (
              patients.data.data.patients.length === 0 ? (
                <EmptyState
                  title="The API answered: no patients registered yet."
                  hint={<Latency ms={patients.data.ms} />}
                />
              ) : (
                <>
                  <p className="flex flex-wrap items-center gap-2 px-4 pt-3 text-[13px]">
                    <Badge status="success">OK</Badge>
                    First {patients.data.data.patients.length} of {formatCount(patients.data.data.total)} patients
                    <Latency ms={patients.data.ms} />
                  </p>
                  <ul className="mt-2 divide-y divide-slate-100 border-t border-slate-100">
                    {patients.data.data.patients.map((p) => (
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
            ) : (
              <p className="text-[13px] text-slate-600">Not tested yet.</p>
            )}
          </CardBody>
        </Card>
      </div>

      <DiagnosticsPanel />
    </>
  );
}
