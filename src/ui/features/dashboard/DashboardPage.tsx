import { Link } from 'react-router';
import {
  ClipboardList,
  Database,
  FlaskConical,
  Package,
  ReceiptIndianRupee as Receipt,
  Server,
  Stethoscope,
  TestTube,
  TestTubes,
  UserCog,
  Users,
} from 'lucide-react';
import {
  Badge,
  Card,
  CardBody,
  CardHeader,
  DateText,
  ErrorPanel,
  LoadingState,
  RefreshButton,
  ScreenHeader,
} from '@/components';
import { formatCount } from '@/lib/format';
import { LabCountCards } from '@/components/LabCountCards';
import type { CountCardDef } from '@/components/CountCards';
import { NOT_AVAILABLE, useDashboardStats, useHealth, type DashboardCounts } from '@/lib/dashboard';

const COUNT_CARDS: CountCardDef[] = [
  { key: 'patients', label: 'Patients', icon: <Users />, hint: 'registered' },
  { key: 'tests', label: 'Tests', icon: <TestTube />, hint: 'individual tests' },
  { key: 'test_profiles', label: 'Test Profiles', icon: <ClipboardList />, hint: 'in the catalogue' },
  { key: 'test_packages', label: 'Test Packages', icon: <Package />, hint: 'in the catalogue' },
  { key: 'samples', label: 'Samples', icon: <TestTubes />, hint: 'collected' },
  { key: 'test_results', label: 'Test Results', icon: <FlaskConical />, hint: 'entered' },
  { key: 'users', label: 'Users', icon: <UserCog />, hint: 'active staff accounts' },
  { key: 'doctors', label: 'Doctors', icon: <Stethoscope />, hint: 'users with the doctor role' },
];

const QUICK_ACTIONS = [
  { to: '/op-bill', label: 'New OP Bill', icon: Receipt },
  { to: '/samples', label: 'Collect Sample', icon: TestTubes },
  { to: '/individual-tests', label: 'Individual Tests', icon: TestTube },
  { to: '/test-packages', label: 'Test Packages', icon: Package },
  { to: '/test-profiles', label: 'Test Profiles', icon: ClipboardList },
  { to: '/patients', label: 'All Patients', icon: Users },
] as const;

const SUMMARY_ROWS: { key: keyof DashboardCounts; label: string }[] = [
  { key: 'patients', label: 'Patient records' },
  { key: 'users', label: 'Staff accounts' },
  { key: 'doctors', label: 'Doctors' },
  { key: 'tests', label: 'Individual tests' },
  { key: 'test_profiles', label: 'Test profiles' },
  { key: 'test_packages', label: 'Test packages' },
  { key: 'samples', label: 'Samples' },
  { key: 'test_results', label: 'Test results' },
  { key: 'bills', label: 'Bills' },
];

function SystemStatus() {
  const health = useHealth();
  return (
    <Card>
      <CardHeader
        title="System Status"
        icon={<Server />}
        description="Checked live against the server every 30 seconds."
      />
      <CardBody>
        {health.isPending ? (
          <LoadingState text="Checking the server..." className="py-4" />
        ) : health.isError ? (
          <ErrorPanel title="Server Unreachable" query={health} />
        ) : (
          <dl className="grid gap-3 text-sm">
            <div className="flex items-center justify-between gap-2">
              <dt className="text-slate-600">Server</dt>
              <dd>
                <Badge status={health.data.status === 'ok' ? 'active' : 'error'}>
                  {health.data.status === 'ok' ? 'Online' : health.data.status}
                </Badge>
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2">
              <dt className="flex items-center gap-1.5 text-slate-600">
                <Database className="size-4" aria-hidden="true" /> Database
              </dt>
              <dd className="flex items-center gap-2">
                <span className="text-xs text-slate-600 tabular-nums">
                  {health.data.database.latency_ms.toFixed(2)} ms
                </span>
                <Badge status={health.data.database.status === 'ok' ? 'active' : 'error'}>
                  {health.data.database.status === 'ok' ? 'Connected' : health.data.database.status}
                </Badge>
              </dd>
            </div>
            <div className="flex items-center justify-between gap-2">
              <dt className="text-slate-600">Version</dt>
              <dd className="text-slate-900">{health.data.version ?? '—'}</dd>
            </div>
            <div className="flex items-center justify-between gap-2">
              <dt className="text-slate-600">Last checked</dt>
              <dd className="text-slate-900">
                <DateText value={health.data.time} withTime />
              </dd>
            </div>
          </dl>
        )}
      </CardBody>
    </Card>
  );
}

/** Spec 2.6: real counts, quick actions, live system status, data summary. */
export default function DashboardPage() {
  const stats = useDashboardStats();
  return (
    <>
      <ScreenHeader actions={<RefreshButton query={stats} />} />
      <LabCountCards
        stats={stats}
        defs={COUNT_CARDS}
        label="Counts"
        className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4"
      />

      <div className="grid gap-5 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader title="Quick Actions" />
          <CardBody className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {QUICK_ACTIONS.map(({ to, label, icon: Icon }) => (
              <Link
                key={to}
                to={to}
                className="flex items-center gap-2 rounded-md border border-slate-200 px-3 py-3 font-medium text-slate-800 hover:border-primary-200 hover:bg-primary-50"
              >
                <Icon className="size-4 shrink-0 text-primary-700" aria-hidden="true" />
                {label}
              </Link>
            ))}
          </CardBody>
        </Card>
        <SystemStatus />
        <Card className="lg:col-span-3">
          <CardHeader title="Data Summary" description="Records stored in this lab's database." />
          <CardBody className="p-0">
            {stats.isPending ? (
              <LoadingState text="Loading data summary..." />
            ) : stats.isError ? (
              <p className="p-4 text-[13px] text-slate-600">
                The data summary could not be loaded; see the error above.
              </p>
            ) : (
              <ul className="grid divide-y divide-slate-100 sm:grid-cols-3 sm:divide-y-0">
                {SUMMARY_ROWS.map(({ key, label }) => {
                  const v = stats.data[key];
                  return (
                    <li
                      key={key}
                      className="flex items-center justify-between gap-2 px-4 py-2.5 sm:border-b sm:border-slate-100"
                    >
                      <span className="text-slate-700">{label}</span>
                      {v === null ? (
                        <span className="text-[13px] text-slate-500">{NOT_AVAILABLE}</span>
                      ) : (
                        <span className="font-semibold text-slate-900 tabular-nums">{formatCount(v)}</span>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
          </CardBody>
        </Card>
      </div>
    </>
  );
}
