import { BarChart3, PieChart, Trophy } from 'lucide-react';
import type { DoctorAnalytics } from '@shared/schemas/doctors';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  DateRangeFields,
  DateText,
  ErrorPanel,
  LoadingState,
  Money,
  rangeIsBackwards,
} from '@/components';
import { formatCount } from '@/lib/format';
import { useDoctorAnalytics } from '../api';
import { doctorTitledName } from '@shared/person-name';

export interface DoctorAnalyticsPanelsProps {
  /** YYYY-MM-DD or '' (the server's default: this month). */
  from: string;
  to: string;
  onRangeChange: (range: { from: string; to: string }) => void;
}

/**
 * Top Performing Doctors, Doctor Analytics and Specialization Distribution (spec 001, Doctor
 * Management), all from the non-cancelled bills of the chosen lab days. The spec's "rating" has
 * no source in a lab: referrals are shown instead.
 */
export function DoctorAnalyticsPanels({ from, to, onRangeChange }: DoctorAnalyticsPanelsProps) {
  const badRange = rangeIsBackwards(from, to);
  const analytics = useDoctorAnalytics(from, to, !badRange);
  const data = analytics.data;
  const shownFrom = from || data?.from || '';
  const shownTo = to || data?.to || '';

  return (
    <section aria-label="Doctor analytics" className="mt-5">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">Referrals</h2>
          <p className="text-[13px] text-slate-600">
            From the bills of the period (cancelled bills left out). Dates are the lab&apos;s calendar days.
          </p>
        </div>
        <div className="grid grid-cols-2 gap-3 sm:flex sm:items-end">
          <DateRangeFields from={shownFrom} to={shownTo} onChange={onRangeChange} />
          {(from || to) && (
            <Button variant="outline" className="col-span-2" onClick={() => onRangeChange({ from: '', to: '' })}>
              This month
            </Button>
          )}
        </div>
      </div>
      {badRange ? (
        <Card>
          <CardBody className="text-[13px] text-slate-700">The From date is after the To date.</CardBody>
        </Card>
      ) : analytics.isError ? (
        <ErrorPanel title="Error Loading Doctor Analytics" query={analytics} />
      ) : !data ? (
        <Card>
          <LoadingState text="Loading doctor analytics..." />
        </Card>
      ) : (
        <div className={`grid gap-5 lg:grid-cols-2 2xl:grid-cols-3${analytics.isPlaceholderData ? ' opacity-60' : ''}`}>
          <TopDoctors data={data} />
          <Totals data={data} />
          <Specializations data={data} />
        </div>
      )}
    </section>
  );
}

function Period({ data }: { data: DoctorAnalytics }) {
  return (
    <>
      <DateText value={data.from} /> to <DateText value={data.to} />
    </>
  );
}

function TopDoctors({ data }: { data: DoctorAnalytics }) {
  return (
    <Card className="min-w-0">
      <CardHeader
        icon={<Trophy />}
        title="Top Performing Doctors"
        description={
          <>
            By billed revenue, <Period data={data} />
          </>
        }
      />
      {data.top_doctors.length === 0 ? (
        <CardBody className="text-[13px] text-slate-600">No bills named a doctor in this period.</CardBody>
      ) : (
        <ol className="divide-y divide-slate-100" aria-label="Top performing doctors">
          {data.top_doctors.map((d, i) => (
            <li key={d.id} className="flex items-start gap-3 px-4 py-3">
              <span className="mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-slate-100 text-xs font-semibold text-slate-700">
                {i + 1}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-slate-900">{doctorTitledName(d)}</p>
                <p className="text-[13px] text-slate-600">
                  {d.specialization ?? 'No specialization'} · {formatCount(d.referrals)} referral
                  {d.referrals === 1 ? '' : 's'} · {formatCount(d.patients)} patient{d.patients === 1 ? '' : 's'} ·{' '}
                  {formatCount(d.tests)} test{d.tests === 1 ? '' : 's'}
                </p>
              </div>
              <Money rupees={d.revenue} className="font-medium text-slate-900" />
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function Totals({ data }: { data: DoctorAnalytics }) {
  const t = data.totals;
  const rows: [string, React.ReactNode][] = [
    ['Referrals (bills)', formatCount(t.referrals)],
    ['Patients referred', formatCount(t.patients)],
    ['Tests billed', formatCount(t.tests)],
    ['Revenue', <Money key="r" rupees={t.revenue} />],
    [
      'Average per referral',
      <Money key="a" rupees={t.referrals ? Math.round((t.revenue / t.referrals) * 100) / 100 : 0} />,
    ],
    ['Doctors referring', formatCount(t.doctors)],
  ];
  return (
    <Card className="min-w-0">
      <CardHeader
        icon={<BarChart3 />}
        title="Doctor Analytics"
        description={
          <>
            <Period data={data} />; tests count each billed test, profile or package line by its quantity
          </>
        }
      />
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 p-4">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-[13px] text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function Specializations({ data }: { data: DoctorAnalytics }) {
  const max = Math.max(1, ...data.specializations.map((s) => s.referrals));
  return (
    <Card className="min-w-0 lg:col-span-2 2xl:col-span-1">
      <CardHeader
        icon={<PieChart />}
        title="Specialization Distribution"
        description="Doctors per specialization and their referrals in the period"
      />
      {data.specializations.length === 0 ? (
        <CardBody className="text-[13px] text-slate-600">No doctors yet.</CardBody>
      ) : (
        <ul className="grid gap-3 p-4" aria-label="Specialization distribution">
          {data.specializations.map((s) => (
            <li key={s.specialization ?? '(none)'} className="min-w-0">
              <div className="flex items-baseline justify-between gap-2 text-[13px]">
                <span className="truncate font-medium text-slate-900">{s.specialization ?? 'Not recorded'}</span>
                <span className="shrink-0 text-slate-600 tabular-nums">
                  {formatCount(s.doctors)} doctor{s.doctors === 1 ? '' : 's'} · {formatCount(s.referrals)} referral
                  {s.referrals === 1 ? '' : 's'} · <Money rupees={s.revenue} />
                </span>
              </div>
              <div className="mt-1 h-2 rounded-full bg-slate-100" aria-hidden="true">
                <div
                  className="h-2 rounded-full bg-primary-600"
                  style={{ width: `${Math.round((s.referrals / max) * 100)}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
