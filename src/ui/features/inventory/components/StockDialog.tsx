import { useState } from 'react';
import { MOVEMENT_TYPES, type MovementType } from '@shared/inventory';
import type { InventoryItem, Movement } from '@shared/schemas/inventory';
import { Button, Checkbox, DataTable, DateText, Dialog, FormField, Input, Pagination, Select } from '@/components';
import { Tabs } from '@/components/Tabs';
import { humanize } from '@/lib/format';
import { useItem, useLots, useMovementMutation, useMovements, useSuppliers } from '../api';
import { DayText, StatusBadge, qty } from './format';
import { UsageEditor } from './UsageEditor';
import { useFieldForm } from '@/lib/forms';
import { submitWith } from '@/lib/submitWith';

const HINTS: Record<MovementType, string> = {
  receive: 'A delivery: creates the lot or tops it up.',
  consume: 'Taken for use: from the earliest-expiring usable lot unless you name one.',
  adjust: 'A correction after a count: positive adds, negative removes.',
  waste: 'Thrown away (expired, broken, spilt): expired lots first.',
  return: 'Unused stock put back.',
};

interface FormState {
  type: MovementType;
  quantity: string;
  lot_number: string;
  expiry_date: string;
  unit_cost: string;
  lot_id: string;
  reason: string;
  allow_expired: boolean;
  supplier_id: string;
  expected_date: string;
  rejected: boolean;
}

const EMPTY: FormState = {
  type: 'receive',
  quantity: '',
  lot_number: '',
  expiry_date: '',
  unit_cost: '',
  lot_id: '',
  reason: '',
  allow_expired: false,
  supplier_id: '',
  expected_date: '',
  rejected: false,
};

function MovementForm({ item, canManage }: { item: InventoryItem; canManage: boolean }) {
  const { values: f, setValues: setF, errors, setErrors, showErrors } = useFieldForm(() => EMPTY);
  const lots = useLots(item.id);
  const suppliers = useSuppliers(f.type === 'receive');
  const move = useMovementMutation();
  const set = (patch: Partial<FormState>) => setF((x) => ({ ...x, ...patch }));
  /** A yes / no of the movement, beside the field it qualifies. */
  const flag = (key: 'rejected' | 'allow_expired', label: string, hint: string) => (
    <div className="pt-6">
      <Checkbox label={label} hint={hint} checked={f[key]} onChange={(e) => set({ [key]: e.target.checked })} />
    </div>
  );
  if (!canManage)
    return (
      <p className="text-[14px] text-slate-600">Recording stock movements needs the manage_inventory permission.</p>
    );

  const submit = () => {
    setErrors({});
    const receive = f.type === 'receive';
    const body = {
      type: f.type,
      quantity: f.quantity,
      reason: f.reason || null,
      ...(receive
        ? {
            lot_number: f.lot_number || null,
            expiry_date: f.expiry_date || null,
            ...(f.unit_cost ? { unit_cost: f.unit_cost } : {}),
            supplier_id: f.supplier_id || null,
            expected_date: f.expected_date || null,
            rejected: f.rejected,
          }
        : { lot_id: f.lot_id || null, ...(f.type === 'consume' ? { allow_expired: f.allow_expired } : {}) }),
    };
    move.mutate(
      // The form sends the fields as typed; the server's schema reads decimal strings as numbers.
      { id: item.id, body: body as never },
      {
        onSuccess: () => setF(() => ({ ...EMPTY, type: f.type })),
        onError: showErrors,
      },
    );
  };

  return (
    <form noValidate onSubmit={submitWith(submit)} className="grid items-start gap-4 sm:grid-cols-2">
      {errors.form && <p className="text-sm text-red-700 sm:col-span-2">{errors.form}</p>}
      <FormField label="Movement" required hint={HINTS[f.type]} error={errors.type}>
        <Select
          value={f.type}
          onChange={(e) => set({ type: e.target.value as MovementType })}
          options={MOVEMENT_TYPES.map((t) => ({ value: t, label: humanize(t) }))}
        />
      </FormField>
      <FormField label={`Quantity (${item.unit})`} required error={errors.quantity}>
        <Input
          type="number"
          inputMode="numeric"
          step={1}
          value={f.quantity}
          onChange={(e) => set({ quantity: e.target.value })}
        />
      </FormField>
      {f.type === 'receive' ? (
        <>
          <FormField label="Lot Number" error={errors.lot_number}>
            <Input value={f.lot_number} onChange={(e) => set({ lot_number: e.target.value })} />
          </FormField>
          <FormField label="Expiry Date" error={errors.expiry_date}>
            <Input type="date" value={f.expiry_date} onChange={(e) => set({ expiry_date: e.target.value })} />
          </FormField>
          <FormField label="Unit Cost (₹)" error={errors.unit_cost} hint={`Default ₹${item.unit_cost}`}>
            <Input
              type="number"
              inputMode="decimal"
              step="0.01"
              min={0}
              value={f.unit_cost}
              onChange={(e) => set({ unit_cost: e.target.value })}
            />
          </FormField>
          <FormField label="Supplier" error={errors.supplier_id}>
            <Select
              value={f.supplier_id}
              onChange={(e) => set({ supplier_id: e.target.value })}
              placeholder={item.supplier ? `${item.supplier} (the item's)` : 'No supplier'}
              options={(suppliers.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
            />
          </FormField>
          <FormField
            label="Due Date"
            error={errors.expected_date}
            hint="When the delivery was promised (on-time rate)."
          >
            <Input type="date" value={f.expected_date} onChange={(e) => set({ expected_date: e.target.value })} />
          </FormField>
          {flag('rejected', 'Rejected at delivery', 'Recorded for the supplier; no stock is added.')}
        </>
      ) : (
        <>
          <FormField label="Lot" error={errors.lot_id}>
            <Select
              value={f.lot_id}
              onChange={(e) => set({ lot_id: e.target.value })}
              placeholder={f.type === 'consume' ? 'Earliest-expiring usable lot' : 'Chosen by the rule'}
              options={(lots.data ?? [])
                .filter((l) => l.remaining > 0 || f.type === 'return' || f.type === 'adjust')
                .map((l) => ({
                  value: String(l.id),
                  label: `${l.lot_number ?? 'No lot'} · ${l.remaining} left${l.expiry_date ? ` · exp ${l.expiry_date}` : ''}`,
                }))}
            />
          </FormField>
          {f.type === 'consume' &&
            flag('allow_expired', 'Use expired stock (override)', 'Recorded in the audit trail with your reason.')}
        </>
      )}
      <FormField
        label="Reason"
        required={f.type !== 'receive' && f.type !== 'consume'}
        error={errors.reason}
        className="sm:col-span-2"
      >
        <Input value={f.reason} onChange={(e) => set({ reason: e.target.value })} />
      </FormField>
      <div className="sm:col-span-2">
        <Button type="submit" loading={move.isPending} loadingText="Recording...">
          Record {humanize(f.type)}
        </Button>
      </div>
    </form>
  );
}

function LotsTab({ item }: { item: InventoryItem }) {
  const lots = useLots(item.id);
  return (
    <DataTable
      caption={`Lots of ${item.item_name}`}
      rows={lots.data}
      loading={lots.isPending}
      error={lots.error ?? undefined}
      onRetry={() => void lots.refetch()}
      getRowId={(l) => l.id}
      empty={{ title: 'No lots yet', hint: 'Receive stock to create a lot.' }}
      columns={[
        { key: 'lot', header: 'Lot', cell: (l) => l.lot_number ?? <span className="text-slate-500">No lot</span> },
        { key: 'expiry', header: 'Expiry', cell: (l) => <DayText value={l.expiry_date} /> },
        {
          key: 'state',
          header: 'State',
          cell: (l) => <StatusBadge value={l.expiry_state} />,
          hideOnMobile: true,
        },
        { key: 'received', header: 'Received', align: 'right', cell: (l) => l.received_quantity, hideOnMobile: true },
        { key: 'remaining', header: 'Remaining', align: 'right', cell: (l) => l.remaining },
      ]}
    />
  );
}

function MovementType({ m }: { m: Movement }) {
  return (
    <>
      {humanize(m.type)}
      {m.rejected ? ' (rejected)' : ''}
      {m.expired_override ? ' (expired override)' : ''}
    </>
  );
}

function LedgerTab({ item }: { item: InventoryItem }) {
  const [page, setPage] = useState(1);
  const m = useMovements(item.id, page);
  return (
    <>
      <DataTable
        caption={`Ledger of ${item.item_name}`}
        rows={m.data?.movements}
        loading={m.isPending}
        error={m.error ?? undefined}
        onRetry={() => void m.refetch()}
        getRowId={(x) => x.id}
        empty={{ title: 'No movements yet' }}
        columns={[
          {
            key: 'when',
            header: 'When',
            cell: (x) => (
              <>
                <DateText value={x.created_at} withTime />
                {/* A phone shows When, Change and Balance: the type and lot go under the time. */}
                <span className="block text-[13px] text-slate-600 md:hidden">
                  <MovementType m={x} />
                  {x.lot_number ? ` · ${x.lot_number}` : ''}
                </span>
              </>
            ),
          },
          {
            key: 'type',
            header: 'Type',
            cell: (x) => (
              <span className="whitespace-nowrap">
                <MovementType m={x} />
              </span>
            ),
            hideOnMobile: true,
          },
          {
            key: 'qty',
            header: 'Change',
            align: 'right',
            cell: (x) => <span className="tabular-nums">{x.quantity > 0 ? `+${x.quantity}` : x.quantity}</span>,
          },
          { key: 'balance', header: 'Balance', align: 'right', cell: (x) => x.balance_after },
          {
            key: 'lot',
            header: 'Lot',
            cell: (x) => <span className="whitespace-nowrap">{x.lot_number ?? '—'}</span>,
            hideOnMobile: true,
          },
          {
            key: 'why',
            header: 'Reason / source',
            cell: (x) => x.reason ?? (x.test_name ? `Result entry: ${x.test_name}` : '—'),
            hideOnMobile: true,
          },
          { key: 'who', header: 'By', cell: (x) => x.user_name ?? '—', hideOnMobile: true },
        ]}
      />
      {m.data && m.data.totalPages > 1 && (
        <Pagination
          page={page}
          totalPages={m.data.totalPages}
          total={m.data.total}
          pageSize={20}
          onPageChange={setPage}
          itemLabel="movements"
        />
      )}
    </>
  );
}

export interface StockDialogProps {
  item: InventoryItem | null;
  onOpenChange: (open: boolean) => void;
  canManage: boolean;
  /** The tab to open on. */
  tab?: 'move' | 'lots' | 'ledger' | 'tests';
}

/** One item's stock: record a movement, its lots, its ledger, and the tests that consume it. */
export function StockDialog({ item: row, onOpenChange, canManage, tab = 'move' }: StockDialogProps) {
  // The figures follow the movements recorded here (the row it was opened from is a snapshot).
  const live = useItem(row);
  const item = row && live.data?.id === row.id ? live.data : row;
  return (
    <Dialog
      open={item !== null}
      onOpenChange={onOpenChange}
      size="xl"
      title={item ? `Stock: ${item.item_name}` : ''}
      description={
        item
          ? `${qty(item.current_stock, item.unit)} on hand, ${qty(item.usable_stock, item.unit)} usable. Stock changes only through the ledger.`
          : undefined
      }
    >
      {item && <StockTabs key={`${item.id}-${tab}`} item={item} canManage={canManage} tab={tab} />}
    </Dialog>
  );
}

function StockTabs({ item, canManage, tab }: { item: InventoryItem; canManage: boolean; tab: string }) {
  const [value, setValue] = useState<string>(tab);
  return (
    <Tabs
      label="Stock"
      value={value}
      onValueChange={setValue}
      tabs={[
        { value: 'move', label: 'Record Movement', content: <MovementForm item={item} canManage={canManage} /> },
        { value: 'lots', label: 'Lots', content: <LotsTab item={item} /> },
        { value: 'ledger', label: 'Ledger', content: <LedgerTab item={item} /> },
        { value: 'tests', label: 'Used by Tests', content: <UsageEditor item={item} canManage={canManage} /> },
      ]}
    />
  );
}
