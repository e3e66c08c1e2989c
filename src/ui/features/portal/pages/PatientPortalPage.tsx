import { useState, type ReactNode } from 'react';
import { Bell, FlaskConical, HeartPulse, LogOut, Settings } from 'lucide-react';
import { PORTAL_NEW_RESULT_DAYS, type PortalPatient, type PortalResult } from '@shared/schemas/portal';
import {
  Badge,
  Button,
  Card,
  DateText,
  Dialog,
  ErrorPanel,
  IconButton,
  LoadingState,
  SignedOutCard,
} from '@/components';
import { humanize } from '@/lib/format';
import { Tabs } from '@/components/Tabs';
import {
  usePortalAppointments,
  usePortalBills,
  usePortalLab,
  usePortalLogoutMutation,
  usePortalMe,
  usePortalResults,
} from '../api';
import { PortalLoginForm } from '../components/PortalLoginForm';
import { AppointmentsList, BillsList, ResultsList } from '../components/PortalRecords';
import { HomeVisits } from '../components/HomeVisits';

type PortalTab = 'appointments' | 'results' | 'bills';

/** The lab's name (from the server) above "Patient Portal", so patients know whose portal it is. */
function Brand() {
  const lab = usePortalLab();
  return (
    <div className="flex items-center gap-2">
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary-600 text-white" aria-hidden="true">
        <HeartPulse className="size-4" />
      </span>
      <span className="grid leading-tight">
        <span className="font-semibold text-slate-900" data-testid="portal-lab-name">
          {lab.data?.name ?? 'Patient Portal'}
        </span>
        {lab.data && <span className="text-xs text-slate-600">Patient Portal</span>}
      </span>
    </div>
  );
}

function Info({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-[12px] font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-slate-900 [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

const membership = (m: string) => (m === 'none' ? 'None' : humanize(m));

/** Results verified within the last PORTAL_NEW_RESULT_DAYS days: the Notifications count. */
function newResults(results: PortalResult[] | undefined): PortalResult[] {
  const since = Date.now() - PORTAL_NEW_RESULT_DAYS * 86_400_000;
  return (results ?? []).filter((r) => Date.parse(r.verified_at) >= since);
}

function SignIn() {
  return (
    <SignedOutCard title="Sign in to your patient portal" brand={<Brand />}>
      <p className="mt-1 mb-5 text-slate-600">See your appointments, test results and bills.</p>
      <PortalLoginForm />
      <p className="mt-5 text-[13px] text-slate-600">
        No PIN yet, or forgotten it? Ask at the lab reception: they issue a new one.
      </p>
    </SignedOutCard>
  );
}

function SignedIn({ patient }: { patient: PortalPatient }) {
  const [tab, setTab] = useState<PortalTab>('appointments');
  const [showNotes, setShowNotes] = useState(false);
  const [showAccount, setShowAccount] = useState(false);
  const appointments = usePortalAppointments(true);
  const results = usePortalResults(true);
  const bills = usePortalBills(true);
  const logout = usePortalLogoutMutation();
  const fresh = newResults(results.data);
  const name = `${patient.first_name} ${patient.last_name}`;

  return (
    <div className="min-h-screen bg-slate-50">
      <header className="sticky top-0 z-10 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-14 max-w-5xl items-center justify-between gap-2 px-3 sm:px-4">
          <Brand />
          <div className="flex items-center gap-1">
            <span className="relative">
              <IconButton
                label={`Notifications: ${fresh.length} new`}
                icon={<Bell />}
                variant="ghost"
                onClick={() => setShowNotes(true)}
              />
              {fresh.length > 0 && (
                <span
                  className="pointer-events-none absolute top-1 right-1 flex min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-4 font-semibold text-white"
                  aria-hidden="true"
                >
                  {fresh.length}
                </span>
              )}
            </span>
            <IconButton label="Settings" icon={<Settings />} variant="ghost" onClick={() => setShowAccount(true)} />
            <Button
              variant="outline"
              size="sm"
              loading={logout.isPending}
              loadingText="Signing out..."
              onClick={() => logout.mutate()}
            >
              <LogOut />
              Logout
            </Button>
          </div>
        </div>
      </header>

      <main className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-4 p-3 sm:p-4">
        <Card className="p-4">
          <h1 className="text-lg font-semibold text-slate-900">Welcome, {name}</h1>
          <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-6">
            <Info label="Patient ID">
              <span className="font-mono">{patient.patient_id}</span>
            </Info>
            <Info label="Age / Gender">
              {patient.age_text ?? '—'}
              {patient.gender ? `, ${patient.gender}` : ''}
            </Info>
            <Info label="Blood Group">{patient.blood_group ?? '—'}</Info>
            <Info label="Mobile">{patient.mobile ?? '—'}</Info>
            <Info label="Email">{patient.email ?? '—'}</Info>
            <Info label="Membership">
              <Badge tone={patient.membership_status === 'none' ? 'grey' : 'blue'}>
                {membership(patient.membership_status)}
              </Badge>
            </Info>
          </dl>
        </Card>

        <HomeVisits />

        <Card>
          <Tabs
            label="Your records"
            value={tab}
            onValueChange={(v) => setTab(v as PortalTab)}
            tabs={[
              {
                value: 'appointments',
                label: 'Appointments',
                count: appointments.data?.length,
                content: <AppointmentsList q={appointments} />,
              },
              {
                value: 'results',
                label: 'Test Results',
                count: results.data?.length,
                content: <ResultsList q={results} />,
              },
              {
                value: 'bills',
                label: 'Bills & Payments',
                count: bills.data?.length,
                content: <BillsList q={bills} />,
              },
            ]}
          />
        </Card>
      </main>

      <Dialog
        open={showNotes}
        onOpenChange={setShowNotes}
        title="Notifications"
        description={`Results verified in the last ${PORTAL_NEW_RESULT_DAYS} days`}
        size="sm"
        footer={<Button onClick={() => setShowNotes(false)}>Close</Button>}
      >
        {fresh.length === 0 ? (
          <p className="text-slate-600">No new results.</p>
        ) : (
          <ul className="grid gap-2">
            {fresh.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  className="flex w-full items-start gap-2 rounded-md px-2 py-1.5 text-left hover:bg-slate-50"
                  onClick={() => {
                    setTab('results');
                    setShowNotes(false);
                  }}
                >
                  <FlaskConical className="mt-0.5 size-4 shrink-0 text-primary-600" aria-hidden="true" />
                  <span>
                    Your <span className="font-medium">{r.test_name}</span> result is ready
                    <span className="block text-[12px] text-slate-500">
                      <DateText value={r.verified_at} withTime />
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Dialog>

      <Dialog
        open={showAccount}
        onOpenChange={setShowAccount}
        title="Account"
        description="Your details as the lab has them"
        size="sm"
        footer={<Button onClick={() => setShowAccount(false)}>Close</Button>}
      >
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm">
          <Info label="Name">{name}</Info>
          <Info label="Patient ID">{patient.patient_id}</Info>
          <Info label="Mobile">{patient.mobile ?? '—'}</Info>
          <Info label="Email">{patient.email ?? '—'}</Info>
          <Info label="Registered">
            <DateText value={patient.registration_date} />
          </Info>
          <Info label="Membership">{membership(patient.membership_status)}</Info>
        </dl>
        <p className="mt-4 text-[13px] text-slate-600">
          To change your details or your PIN, please contact the lab. A new PIN signs you out everywhere.
        </p>
      </Dialog>
    </div>
  );
}

/**
 * Patient Portal (spec 2.14): a public page with its own sign-in (patient ID, mobile number, PIN)
 * and its own session; it never uses the staff session.
 */
export default function PatientPortalPage() {
  const me = usePortalMe();
  if (me.isPending) return <LoadingState text="Loading..." className="min-h-screen" />;
  if (me.isError) {
    return (
      <main className="mx-auto max-w-md p-4 pt-16">
        <ErrorPanel title="Could not reach the patient portal" query={me} />
      </main>
    );
  }
  return me.data ? <SignedIn patient={me.data} /> : <SignIn />;
}
