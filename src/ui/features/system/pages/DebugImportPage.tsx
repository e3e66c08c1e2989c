import { useRef, useState, type ReactNode } from 'react';
import {
  ClipboardList,
  Database,
  Eraser,
  Package,
  Play,
  ShieldCheck,
  Stethoscope,
  TestTube,
  UserPlus,
  Users,
} from 'lucide-react';
import { Button, Card, CardHeader, ErrorPanel, ScreenHeader } from '@/components';
import { errorMessage } from '@/lib/api';
import { formatCount } from '@/lib/format';
import { notify } from '@/lib/notify';
import { useCurrentUser } from '@/lib/session';
import { CountCards, type CountCardDef } from '@/components/CountCards';
import { can } from '@/lib/roles';
import { checks, formatBytes, useDiagnostics, useLabCounts } from '../api';
import { NoAccess } from '@/components/NoAccess';
import { ResultsList, type TestEntry } from '../components/ResultsList';

const COUNT_CARDS: CountCardDef[] = [
  { key: 'patients', label: 'Patients', icon: <Users />, hint: 'registered' },
  { key: 'doctors', label: 'Doctors', icon: <Stethoscope />, hint: 'active doctor accounts' },
  { key: 'tests', label: 'Tests', icon: <TestTube />, hint: 'individual tests' },
  { key: 'test_profiles', label: 'Profiles', icon: <ClipboardList />, hint: 'test profiles' },
  { key: 'test_packages', label: 'Packages', icon: <Package />, hint: 'test packages' },
];

interface Check {
  name: string;
  /** Resolves to the success text; throws (with the reason) on failure. */
  run: () => Promise<string>;
  failToast: string;
}

/** Each check does the real thing against the real database; nothing here is simulated. */
const CHECKS = {
  database: {
    name: 'Database Connection',
    failToast: 'Database connection test failed',
    run: async () => {
      const { data, ms } = await checks.database();
      const db = data.database;
      const where = db.type === 'SQLite' ? db.file : db.server;
      const version = db.type === 'SQLite' ? db.sqlite_version : db.server_version;
      if (db.quick_check !== 'ok') throw new Error(`${where}: integrity check says "${db.quick_check}"`);
      return `Connected to ${db.type} ${version} at ${where} (${formatBytes(db.size_bytes)}, schema v${db.schema_version}); integrity check ok; ${ms} ms.`;
    },
  },
  retrieval: {
    name: 'Data Retrieval',
    failToast: 'Data retrieval test failed',
    run: async () => {
      const { data, ms } = await checks.patients();
      const codes = data.patients.map((p) => p.patient_id).join(', ');
      return `Read ${data.patients.length} of ${formatCount(data.total)} patients in ${ms} ms${codes ? `: ${codes}` : ''}.`;
    },
  },
  patientWrite: {
    name: 'Patient Creation',
    failToast: 'Real patient creation test failed',
    run: async () => {
      const { data } = await checks.patientWrite();
      if (!data.ok) throw new Error(data.error ?? 'the write check failed');
      return `Created patient ${data.patient_code ?? ''} with its audit row in ${data.ms} ms, then rolled it back: no data was kept.`;
    },
  },
  auditChain: {
    name: 'Audit Trail Verification',
    failToast: 'Audit trail verification failed',
    run: async () => {
      const { data, ms } = await checks.auditChain();
      if (!data.ok)
        throw new Error(
          `Row ${data.firstBrokenId ?? '?'} is broken: ${data.reason ?? 'unknown reason'} (${formatCount(data.checked)} rows intact before it).`,
        );
      return `All ${formatCount(data.checked)} audit rows are intact and correctly chained (${ms} ms).`;
    },
  },
} satisfies Record<string, Check>;

type CheckId = keyof typeof CHECKS;
const RUN_ALL: CheckId[] = ['database', 'retrieval', 'patientWrite'];
/** A lab's own admin: the database file and the audit chain are the server operator's (they span every lab). */
const LAB_CHECKS: CheckId[] = ['retrieval', 'patientWrite'];

/** Debug Import System (spec 2.18): real diagnostics for admins. */
export default function DebugImportPage() {
  const me = useCurrentUser();
  const allowed = can(me, 'system_settings');
  const operator = can(me, 'manage_tenants');
  const diagnostics = useDiagnostics(allowed && operator);
  const labCounts = useLabCounts(allowed && !operator);
  const counts = operator ? diagnostics : labCounts;
  const runAll = operator ? RUN_ALL : RUN_ALL.filter((c) => LAB_CHECKS.includes(c));
  const [entries, setEntries] = useState<TestEntry[]>([]);
  const [running, setRunning] = useState<CheckId | 'all' | null>(null);
  const nextId = useRef(1);

  if (!allowed) {
    return (
      <>
        <ScreenHeader />
        <NoAccess what="system diagnostics" permission="system_settings" />
      </>
    );
  }

  const append = (name: string, status: TestEntry['status'], message: string) =>
    setEntries((list) => [...list, { id: nextId.current++, name, status, message, at: new Date() }]);

  const runOne = async (id: CheckId): Promise<boolean> => {
    const check = CHECKS[id];
    append(check.name, 'pending', `Running ${check.name.toLowerCase()} test...`);
    try {
      append(check.name, 'success', await check.run());
      return true;
    } catch (err) {
      append(check.name, 'error', errorMessage(err));
      notify.error(check.failToast, err);
      return false;
    }
  };

  const run = async (id: CheckId | 'all') => {
    setRunning(id);
    try {
      if (id === 'all') {
        // One after another, as the spec says: a failure does not stop the next check.
        for (const c of runAll) await runOne(c);
      } else {
        await runOne(id);
      }
    } finally {
      setRunning(null);
      void counts.refetch();
    }
  };

  const busy = running !== null;
  const button = (id: CheckId | 'all', label: string, icon: ReactNode, variant: 'primary' | 'outline' = 'outline') => (
    <Button
      variant={variant}
      onClick={() => void run(id)}
      disabled={busy && running !== id}
      loading={running === id}
      loadingText="Running..."
    >
      {icon}
      {label}
    </Button>
  );

  return (
    <>
      <ScreenHeader />
      {counts.isError ? (
        <ErrorPanel title="Database Connection Error" query={counts} retryLabel="Retry Connection" className="mb-5" />
      ) : (
        <section aria-label="Record counts" className="mb-5 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          <CountCards defs={COUNT_CARDS} counts={counts.data?.counts} loading={counts.isPending} />
        </section>
      )}
      <Card className="mb-5">
        <CardHeader
          title="Tests"
          description="Each test talks to the real server and database. The patient creation test rolls its write back."
        />
        <div className="flex flex-wrap gap-2 p-4">
          {operator && button('database', 'Test Database Connection', <Database />)}
          {button('retrieval', 'Test Data Retrieval', <Users />)}
          {button('patientWrite', 'Test Patient Creation', <UserPlus />)}
          {operator && button('auditChain', 'Verify Audit Trail', <ShieldCheck />)}
          {button('all', 'Run All Tests', <Play />, 'primary')}
          <Button variant="ghost" onClick={() => setEntries([])} disabled={busy || entries.length === 0}>
            <Eraser />
            Clear Results
          </Button>
        </div>
      </Card>
      <Card>
        <CardHeader title="Test Results" description={entries.length > 0 ? `${entries.length} entries` : undefined} />
        <ResultsList entries={entries} />
      </Card>
    </>
  );
}
