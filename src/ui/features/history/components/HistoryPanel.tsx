import { forwardRef, useState } from 'react';
import { CalendarPlus, History, X } from 'lucide-react';
import type { Visit } from '@shared/schemas/history';
import type { Permission } from '@shared/roles';
import { Button, Card, CardHeader, ErrorPanel, IconButton, LoadingState } from '@/components';
import { billPdfUrl } from '@/lib/bills';
import { openVisitReport } from '@/lib/visitReport';
import { useCurrentUser } from '@/lib/session';
import { usePatientHistory } from '../api';
import { BillsTab, OverviewTab, ResultsTab, VisitsTab } from './HistoryTabs';
import { PortalAccessPanel } from './PortalAccessPanel';
import { Tabs } from '@/components/Tabs';
import { BookVisitDialog, UpdateVisitDialog } from './VisitDialogs';

export const HISTORY_TABS = ['overview', 'visits', 'results', 'bills'] as const;
export type HistoryTab = (typeof HISTORY_TABS)[number];

export interface HistoryPanelProps {
  patientId: number;
  tab: HistoryTab;
  onTabChange: (tab: HistoryTab) => void;
  onClose: () => void;
}

/** The Medical History card (spec 2.13): Overview, Visits, Test Results, Bills of the selected patient. */
export const HistoryPanel = forwardRef<HTMLDivElement, HistoryPanelProps>(function HistoryPanel(
  { patientId, tab, onTabChange, onClose },
  ref,
) {
  const user = useCurrentUser();
  const can = (p: Permission) => user.permissions.includes(p);
  const history = usePatientHistory(patientId);
  const [booking, setBooking] = useState(false);
  const [editing, setEditing] = useState<Visit | null>(null);
  const h = history.data;
  const canBook = can('manage_appointments') && can('view_users');

  return (
    <div ref={ref} tabIndex={-1} className="scroll-mt-4 focus:outline-none">
      <Card>
        <CardHeader
          icon={<History />}
          title={h ? `Medical History — ${h.patient.first_name} ${h.patient.last_name}` : 'Medical History'}
          description={
            h ? `${h.patient.patient_id} · ${h.patient.age_text ?? '—'} · ${h.patient.gender ?? '—'}` : undefined
          }
          actions={
            <>
              {h && canBook && (
                <Button size="sm" variant="outline" aria-label="Book Appointment" onClick={() => setBooking(true)}>
                  <CalendarPlus />
                  <span className="hidden sm:inline">Book Appointment</span>
                </Button>
              )}
              <IconButton label="Close medical history" icon={<X />} variant="ghost" onClick={onClose} />
            </>
          }
        />
        {history.isPending && <LoadingState text="Loading patient data..." />}
        {history.isError && (
          <ErrorPanel title="Database Connection Error" query={history} retryLabel="Retry Connection" className="m-4" />
        )}
        {h && (
          <Tabs
            label="Medical history"
            value={tab}
            onValueChange={(v) =>
              onTabChange((HISTORY_TABS as readonly string[]).includes(v) ? (v as HistoryTab) : 'overview')
            }
            tabs={[
              {
                value: 'overview',
                label: 'Overview',
                content: (
                  <OverviewTab
                    history={h}
                    portal={can('manage_patients') ? <PortalAccessPanel patient={h.patient} /> : undefined}
                  />
                ),
              },
              {
                value: 'visits',
                label: 'Visits',
                count: h.visits.length,
                content: <VisitsTab visits={h.visits} canEdit={can('manage_appointments')} onEdit={setEditing} />,
              },
              {
                value: 'results',
                label: 'Test Results',
                count: h.test_results.length,
                content: <ResultsTab results={h.test_results} samples={h.samples} />,
              },
              {
                value: 'bills',
                label: 'Bills',
                count: h.bills.length,
                content: (
                  <BillsTab
                    bills={h.bills}
                    pdfUrl={can('view_bills') ? (b) => billPdfUrl(b.id) : undefined}
                    openReport={can('view_results') ? (b) => void openVisitReport(b.id) : undefined}
                  />
                ),
              },
            ]}
          />
        )}
      </Card>
      {h && <BookVisitDialog patient={h.patient} open={booking} onOpenChange={setBooking} />}
      <UpdateVisitDialog patientId={patientId} visit={editing} onOpenChange={(open) => !open && setEditing(null)} />
    </div>
  );
});
