import type { MouseEvent } from 'react';
import { Ban, Eye, Pencil, QrCode, Trash2 } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import type { SampleStatus } from '@shared/samples';
import { Button, DateText, IconButton, type Column } from '@/components';
import { PriorityBadge, StatusBadge, collectorName, patientName } from '../text';

export interface CollectionActions {
  canManage: boolean;
  /** The status being saved for this sample id, so only its button shows progress. */
  busyId: number | null;
  onView: (s: Sample) => void;
  onBarcode: (s: Sample) => void;
  onMove: (s: Sample, to: SampleStatus) => void;
  onReject: (s: Sample) => void;
  onEdit: (s: Sample) => void;
  onDelete: (s: Sample) => void;
}

/** The next step button (spec: collected gets Process, processing gets Complete; pending gets Collect). */
const NEXT: Partial<Record<string, { to: SampleStatus; label: string }>> = {
  pending: { to: 'collected', label: 'Collect' },
  collected: { to: 'processing', label: 'Process' },
  processing: { to: 'completed', label: 'Complete' },
};

const OPEN = ['pending', 'collected', 'processing'];

/** Row clicks open the details; a button inside the row must not do that too. */
const quiet = (fn: () => void) => (e: MouseEvent) => {
  e.stopPropagation();
  fn();
};

/** Sample Collection table: Sample ID, Barcode, Patient, Sample Type, Collection Time, Collected By, Priority, Status, Actions. */
export function collectionColumns(a: CollectionActions): Column<Sample>[] {
  return [
    {
      key: 'sample_id',
      header: 'Sample ID',
      cell: (s) => <span className="font-mono text-[13px] font-medium whitespace-nowrap">{s.sample_id}</span>,
    },
    {
      key: 'barcode',
      header: 'Barcode',
      hideOnMobile: true,
      cell: (s) =>
        s.barcode ? (
          <span className="font-mono text-[13px] whitespace-nowrap">{s.barcode}</span>
        ) : (
          <span className="text-slate-500">No barcode</span>
        ),
    },
    {
      key: 'patient',
      header: 'Patient',
      cell: (s) => (
        <div className="min-w-32">
          <p className="font-medium">{patientName(s)}</p>
          <p className="font-mono text-xs text-slate-600">{s.patient_number || 'N/A'}</p>
        </div>
      ),
    },
    { key: 'sample_type', header: 'Sample Type', cell: (s) => s.sample_type },
    {
      key: 'collection_date',
      header: 'Collection Time',
      hideOnMobile: true,
      cell: (s) =>
        s.collection_date ? (
          <DateText value={s.collection_date} withTime />
        ) : (
          <span className="text-slate-500">Not collected</span>
        ),
    },
    {
      key: 'collector',
      header: 'Collected By',
      hideOnMobile: true,
      cell: (s) => collectorName(s) ?? <span className="text-slate-500">Not recorded</span>,
    },
    { key: 'priority', header: 'Priority', cell: (s) => <PriorityBadge priority={s.priority} /> },
    { key: 'status', header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (s) => {
        const next = NEXT[s.status];
        return (
          <div className="flex items-center justify-end gap-0.5 whitespace-nowrap">
            {a.canManage && next && (
              <Button
                size="sm"
                variant="outline"
                className="mr-1"
                aria-label={`${next.label} ${s.sample_id}`}
                loading={a.busyId === s.id}
                loadingText="Saving..."
                disabled={a.busyId !== null}
                onClick={(e) => {
                  e.stopPropagation();
                  a.onMove(s, next.to);
                }}
              >
                {next.label}
              </Button>
            )}
            <IconButton label={`View ${s.sample_id}`} icon={<Eye />} onClick={quiet(() => a.onView(s))} />
            {s.barcode && (
              <IconButton label={`Barcode of ${s.sample_id}`} icon={<QrCode />} onClick={quiet(() => a.onBarcode(s))} />
            )}
            {a.canManage && (
              <>
                <IconButton label={`Edit ${s.sample_id}`} icon={<Pencil />} onClick={quiet(() => a.onEdit(s))} />
                {OPEN.includes(s.status) && (
                  <IconButton
                    label={`Reject ${s.sample_id}`}
                    icon={<Ban />}
                    className="text-red-700 hover:bg-red-50 hover:text-red-800"
                    onClick={quiet(() => a.onReject(s))}
                  />
                )}
                <IconButton
                  label={`Delete ${s.sample_id}`}
                  icon={<Trash2 />}
                  className="text-red-700 hover:bg-red-50 hover:text-red-800"
                  onClick={quiet(() => a.onDelete(s))}
                />
              </>
            )}
          </div>
        );
      },
    },
  ];
}
