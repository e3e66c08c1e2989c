import type { MouseEvent } from 'react';
import { DropdownMenu } from 'radix-ui';
import { Ban, Eye, MoreHorizontal, Pencil, QrCode, RotateCcw, Trash2 } from 'lucide-react';
import type { Sample } from '@shared/schemas/samples';
import type { SampleStatus } from '@shared/samples';
import { Button, IconButton, Tooltip, type Column } from '@/components';
import { PriorityBadge, RecollectLink, StatusBadge, collectorName, patientName } from '../text';
import { BarcodeText, collectedAtColumn, PhoneLines } from './SampleList';

export interface CollectionActions {
  canManage: boolean;
  /** The status being saved for this sample id, so only its button shows progress. */
  busyId: number | null;
  onView: (s: Sample) => void;
  onBarcode: (s: Sample) => void;
  onMove: (s: Sample, to: SampleStatus) => void;
  /** A pending tube: opens Collect on it (Collected By, location). */
  onCollect: (s: Sample) => void;
  /** A rejected sample not drawn again yet: a new tube for the same tests. */
  onRecollect: (s: Sample) => void;
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

const itemClass =
  'flex cursor-default items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 outline-none select-none ' +
  'data-[highlighted]:bg-slate-100 [&_svg]:size-4 [&_svg]:text-slate-500';
const dangerClass = `${itemClass} text-red-700 [&_svg]:!text-red-600 data-[highlighted]:bg-red-50`;

/** Secondary actions (UI.md: in a menu) keep the row narrow: Edit, Reject while open, Delete. */
function RowMenu({ s, a }: { s: Sample; a: CollectionActions }) {
  return (
    <DropdownMenu.Root>
      <Tooltip content={`More actions for ${s.sample_id}`}>
        <DropdownMenu.Trigger asChild>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label={`More actions for ${s.sample_id}`}
            onClick={(e) => e.stopPropagation()}
          >
            <MoreHorizontal />
          </Button>
        </DropdownMenu.Trigger>
      </Tooltip>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          onClick={(e) => e.stopPropagation()}
          className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Item className={itemClass} onSelect={() => a.onEdit(s)}>
            <Pencil aria-hidden="true" />
            Edit
          </DropdownMenu.Item>
          {OPEN.includes(s.status) && (
            <DropdownMenu.Item className={dangerClass} onSelect={() => a.onReject(s)}>
              <Ban aria-hidden="true" />
              Reject
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
          <DropdownMenu.Item className={dangerClass} onSelect={() => a.onDelete(s)}>
            <Trash2 aria-hidden="true" />
            Delete
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Sample Collection table: Sample ID, Barcode, Patient, Sample Type, Collection Time, Collected By, Priority, Status, Actions. */
export function collectionColumns(a: CollectionActions): Column<Sample>[] {
  return [
    {
      key: 'sample_id',
      header: (
        <>
          Sample ID<span className="hidden md:inline 2xl:hidden"> / Barcode</span>
        </>
      ),
      cell: (s) => (
        <>
          <span className="font-mono text-[13px] font-medium whitespace-nowrap">{s.sample_id}</span>
          {/* Below 2xl the Barcode column is hidden (the row's buttons need its width): the barcode is here. */}
          {s.barcode && (
            <span className="hidden font-mono text-xs whitespace-nowrap text-slate-600 md:block 2xl:hidden">
              {s.barcode}
            </span>
          )}
          <RecollectLink s={s} />
          <PhoneLines>
            <span className="font-medium">{patientName(s)}</span>
            <span className="flex flex-wrap items-center gap-1.5 text-[13px] text-slate-600">
              {s.sample_type} <StatusBadge status={s.status} /> <PriorityBadge priority={s.priority} />
            </span>
          </PhoneLines>
        </>
      ),
    },
    {
      key: 'barcode',
      header: 'Barcode',
      hideOnMobile: true,
      hideBelow: '2xl',
      cell: (s) => <BarcodeText s={s} />,
    },
    {
      key: 'patient',
      hideOnMobile: true,
      header: 'Patient',
      cell: (s) => (
        <div className="min-w-32">
          <p className="font-medium">{patientName(s)}</p>
          <p className="font-mono text-xs text-slate-600">{s.patient_number || 'N/A'}</p>
        </div>
      ),
    },
    { key: 'sample_type', header: 'Sample Type', hideOnMobile: true, cell: (s) => s.sample_type },
    collectedAtColumn('Collection Time'),
    {
      key: 'collector',
      header: 'Collected By',
      hideOnMobile: true,
      cell: (s) => collectorName(s) ?? <span className="text-slate-500">Not recorded</span>,
    },
    { key: 'priority', header: 'Priority', hideOnMobile: true, cell: (s) => <PriorityBadge priority={s.priority} /> },
    { key: 'status', header: 'Status', hideOnMobile: true, cell: (s) => <StatusBadge status={s.status} /> },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      cell: (s) => {
        const next = NEXT[s.status];
        return (
          <div className="flex items-center justify-end gap-0.5 whitespace-nowrap">
            {a.canManage && s.status === 'rejected' && !s.recollected_as && (
              <Button
                size="sm"
                variant="outline"
                className="mr-1"
                aria-label={`Recollect ${s.sample_id}`}
                onClick={quiet(() => a.onRecollect(s))}
              >
                <RotateCcw />
                Recollect
              </Button>
            )}
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
                  if (s.status === 'pending') a.onCollect(s);
                  else a.onMove(s, next.to);
                }}
              >
                {next.label}
              </Button>
            )}
            <IconButton label={`View ${s.sample_id}`} icon={<Eye />} onClick={quiet(() => a.onView(s))} />
            {s.barcode ? (
              <IconButton label={`Barcode of ${s.sample_id}`} icon={<QrCode />} onClick={quiet(() => a.onBarcode(s))} />
            ) : (
              // Keeps the icons of every row in the same columns.
              <span className="inline-block size-8" aria-hidden="true" />
            )}
            {a.canManage && <RowMenu s={s} a={a} />}
          </div>
        );
      },
    },
  ];
}
