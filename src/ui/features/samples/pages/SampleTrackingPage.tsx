import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Eye, Settings2, TestTubes } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import { DateText, LinkButton, ScreenHeader, type Column, type RowAction } from '@/components';
import type { ListFilter } from '@/lib/usePagedList';
import { withQuery } from '@/lib/api';
import { SampleScreenBody, SamplesCard, sampleIdColumn, useSampleList } from '../components/SampleList';
import { RealtimeStatusCard, TimelineCard } from '../components/TrackingPanels';
import { OPEN_STATUS_OPTIONS, PRIORITY_OPTIONS, PriorityBadge, StatusBadge, patientName } from '../text';

const FILTERS: ListFilter[] = [
  { key: 'status', label: 'Status', options: OPEN_STATUS_OPTIONS },
  { key: 'priority', label: 'Priority', options: PRIORITY_OPTIONS },
];
const OPEN = ['pending', 'collected', 'processing'];

/** Collected column: the collection time and the ETA (collection + 2 h); an open sample past its ETA is marked late. */
function Collected({ s, now }: { s: Sample; now: number }) {
  if (!s.collection_date) return <span className="text-slate-500">Not collected</span>;
  const late = s.eta !== null && OPEN.includes(s.status) && Date.parse(s.eta) < now;
  return (
    <div className="text-[13px] whitespace-nowrap">
      <DateText value={s.collection_date} withTime />
      {s.eta && (
        <p className={late ? 'font-medium text-red-700' : 'text-slate-600'}>
          ETA: <DateText value={s.eta} withTime />
          {late && ' (overdue)'}
        </p>
      )}
    </div>
  );
}

const trackingColumns = (now: number): Column<Sample>[] => [
  sampleIdColumn((s) => (
    <>
      <span className="font-medium">{patientName(s)}</span>
      <span className="flex flex-wrap items-center gap-1.5">
        <StatusBadge status={s.status} icon /> <PriorityBadge priority={s.priority} />
      </span>
      <Collected s={s} now={now} />
    </>
  )),
  {
    key: 'patient',
    header: 'Patient',
    hideOnMobile: true,
    cell: (s) => {
      const name = `${s.first_name ?? ''} ${s.last_name ?? ''}`.trim();
      return (
        <div className="min-w-32">
          <p className="font-medium">{name || 'Unknown Patient'}</p>
          <p className="font-mono text-xs text-slate-600">{s.patient_number || 'N/A'}</p>
        </div>
      );
    },
  },
  {
    key: 'test_type',
    header: 'Test Type',
    hideOnMobile: true,
    cell: (s) =>
      s.tests.length ? <span className="text-[13px]">{s.tests.map((t) => t.name).join(', ')}</span> : s.sample_type,
  },
  { key: 'status', header: 'Status', hideOnMobile: true, cell: (s) => <StatusBadge status={s.status} icon /> },
  { key: 'location', header: 'Location', hideOnMobile: true, cell: (s) => s.location || 'N/A' },
  { key: 'priority', header: 'Priority', hideOnMobile: true, cell: (s) => <PriorityBadge priority={s.priority} /> },
  { key: 'collected', header: 'Collected', hideOnMobile: true, cell: (s) => <Collected s={s} now={now} /> },
];

/** The time, refreshed every minute, so "overdue" appears without a reload. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

/** Sample Tracking (/sample-tracking): where every sample is, its ETA, and how the lab is keeping up. */
export default function SampleTrackingPage() {
  const navigate = useNavigate();
  const samples = useSampleList(FILTERS);
  const now = useNow();
  const columns = trackingColumns(now);

  // Spec: both actions go to Sample Collection; there they open this sample's details or find it to manage.
  const actions: RowAction<Sample>[] = [
    {
      label: (s) => `View details of ${s.sample_id}`,
      icon: <Eye />,
      onClick: (s) => void navigate(withQuery('/samples', { view: s.id })),
    },
    {
      label: (s) => `Manage ${s.sample_id}`,
      icon: <Settings2 />,
      onClick: (s) => void navigate(withQuery('/samples', { search: s.sample_id })),
    },
  ];

  return (
    <>
      <ScreenHeader
        subtitle="Where each sample is, when it is due, and how the lab is keeping up"
        actions={
          <LinkButton to="/samples">
            <TestTubes />
            Manage Samples
          </LinkButton>
        }
      />

      <SampleScreenBody
        samples={samples}
        cards={['total', 'collected', 'processing', 'completed']}
        loadingText="Loading sample tracking data..."
        errorTitle="Error Loading Sample Tracking"
      >
        <div className="grid grid-cols-1 items-start gap-5 2xl:grid-cols-[minmax(0,1fr)_18rem]">
          <SamplesCard
            samples={samples}
            search={{ placeholder: 'Search by sample ID, sample type or patient name', label: 'Search samples' }}
            caption="Sample tracking"
            columns={columns}
            errorTitle="Error Loading Sample Tracking"
            rowActions={actions}
          />
          <aside aria-label="Tracking panels" className="grid grid-cols-1 gap-5 md:grid-cols-2 2xl:grid-cols-1">
            <TimelineCard summary={samples.summary} />
            <RealtimeStatusCard summary={samples.summary} />
          </aside>
        </div>
      </SampleScreenBody>
    </>
  );
}
