import type { Calibration, Maintenance } from '@shared/schemas/equipment';
import { calibrationsApi } from '@shared/api/equipment';
import { DateText, Money, type Column } from '@/components';
import { contractUrl } from '@/lib/api';
import { ServiceStatusBadge } from './badges';

type Service = Calibration | Maintenance;

const equipmentCell = (s: Service) => (
  <div className="min-w-0">
    <span className="block font-medium text-slate-900">{s.equipment_name}</span>
    <span className="block text-[13px] text-slate-600">{s.serial_number}</span>
    <span className="block text-[13px] text-slate-600 md:hidden">{s.type}</span>
    {/* On a phone the Status column is hidden: the badge goes under the name. */}
    <span className="mt-1 block md:hidden">
      <ServiceStatusBadge status={s.status} />
    </span>
  </div>
);

const dueCell = (s: Service) => (
  <span className={s.status === 'overdue' ? 'font-medium text-red-700' : ''}>
    <DateText value={s.due_date} />
    {s.days_overdue > 0 && (
      <span className="block text-[12px]">
        {s.days_overdue} day{s.days_overdue === 1 ? '' : 's'} overdue
      </span>
    )}
  </span>
);

function base<T extends Service>(first: string): Column<T>[] {
  return [
    { key: 'equipment', header: first, cell: equipmentCell },
    { key: 'type', header: 'Type', cell: (s) => s.type, hideOnMobile: true },
    { key: 'status', header: 'Status', cell: (s) => <ServiceStatusBadge status={s.status} />, hideOnMobile: true },
    { key: 'due', header: 'Due Date', cell: dueCell },
    { key: 'by', header: 'Performed By', cell: (s) => s.performed_by ?? '—', hideOnMobile: true },
    { key: 'at', header: 'Performed On', cell: (s) => <DateText value={s.performed_at} />, hideOnMobile: true },
    { key: 'next', header: 'Next Due', cell: (s) => <DateText value={s.next_due} />, hideOnMobile: true },
  ];
}

export const calibrationColumns: Column<Calibration>[] = [
  ...base<Calibration>('Instrument'),
  {
    key: 'accuracy',
    header: 'Accuracy',
    align: 'right',
    cell: (c) => (c.accuracy === null ? '—' : `${c.accuracy}%`),
    hideOnMobile: true,
  },
  {
    key: 'certificate',
    header: 'Certificate',
    cell: (c) =>
      c.certificate ? (
        <a
          className="text-blue-700 underline"
          href={contractUrl(calibrationsApi.certificate, { params: { id: c.id } })}
          target="_blank"
          rel="noreferrer"
          onClick={(e) => e.stopPropagation()}
        >
          Open
        </a>
      ) : (
        '—'
      ),
    hideOnMobile: true,
  },
];

export const maintenanceColumns: Column<Maintenance>[] = [
  ...base<Maintenance>('Equipment'),
  { key: 'cost', header: 'Cost', align: 'right', cell: (m) => (m.cost === null ? '—' : <Money rupees={m.cost} />) },
];
