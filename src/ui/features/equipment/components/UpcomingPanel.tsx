import { Card, CardBody, CardHeader, DateText } from '@/components';
import type { ServiceKind } from '@shared/schemas/equipment';
import { useCalibrationPage, useMaintenancePage } from '../api';
import { ServiceStatusBadge } from './badges';
import { formatCount } from '@/lib/format';

const OVERDUE = { search: '', status: 'overdue', page: 1, limit: 5 };
const UPCOMING = { search: '', status: 'upcoming', page: 1, limit: 5 };

/** Calibration Alerts (Instruments) or Maintenance Schedule (Machines): overdue first, then the next 30 days. */
export function UpcomingPanel({ kind }: { kind: ServiceKind }) {
  const cal = kind === 'calibration';
  const overdueCal = useCalibrationPage(OVERDUE, cal);
  const upcomingCal = useCalibrationPage(UPCOMING, cal);
  const overdueMaint = useMaintenancePage(OVERDUE, !cal);
  const upcomingMaint = useMaintenancePage(UPCOMING, !cal);
  const overdue = cal ? overdueCal : overdueMaint;
  const upcoming = cal ? upcomingCal : upcomingMaint;
  const items = cal
    ? [...(overdueCal.data?.calibrations ?? []), ...(upcomingCal.data?.calibrations ?? [])]
    : [...(overdueMaint.data?.maintenance ?? []), ...(upcomingMaint.data?.maintenance ?? [])];
  const title = cal ? 'Calibration Alerts' : 'Maintenance Schedule';
  return (
    <Card className="min-w-0 self-start">
      <CardHeader
        title={title}
        description={cal ? 'Overdue and due within 30 days' : 'Overdue and due within 30 days'}
      />
      <CardBody>
        {overdue.isPending || upcoming.isPending ? (
          <p className="text-[13px] text-slate-600">Loading…</p>
        ) : overdue.isError || upcoming.isError ? (
          <p className="text-[13px] text-red-700">Could not load the schedule.</p>
        ) : items.length === 0 ? (
          <p className="text-[13px] text-slate-600">Nothing overdue or due in the next 30 days.</p>
        ) : (
          <ul className="grid gap-2 text-[13px]">
            {items.map((i) => (
              <li key={i.id} className="flex items-start justify-between gap-2 border-b border-slate-100 pb-2">
                <span className="min-w-0">
                  <span className="block font-medium text-slate-900">{i.equipment_name}</span>
                  <span className="block text-slate-600">
                    {i.type} · due <DateText value={i.due_date} />
                  </span>
                </span>
                <ServiceStatusBadge status={i.status} />
              </li>
            ))}
          </ul>
        )}
        {(overdue.data?.total ?? 0) > 5 && (
          <p className="mt-2 text-[13px] text-slate-600">{formatCount(overdue.data?.total)} overdue in all.</p>
        )}
      </CardBody>
    </Card>
  );
}
