import { Plus } from 'lucide-react';
import type { Supplier } from '@shared/schemas/inventory';
import {
  NameCell,
  Button,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  DataTable,
  DateText,
  FormDialog,
  FormField,
  Input,
  deleteMessage,
  useRowDialogs,
  type Column,
  type RowAction,
} from '@/components';
import { useDeleteSupplierMutation, useSaveSupplierMutation, useSuppliers } from '../api';
import { useFieldForm } from '@/lib/forms';
import { textDefaults } from '@/lib/textDefaults';
import { submitWith } from '@/lib/submitWith';

const FIELDS = ['name', 'contact_person', 'phone', 'email', 'gstin', 'lead_time_days'] as const;
type Field = (typeof FIELDS)[number];
const LABELS: Record<Field, string> = {
  name: 'Name',
  contact_person: 'Contact Person',
  phone: 'Phone',
  email: 'Email',
  gstin: 'GSTIN',
  lead_time_days: 'Lead Time (days)',
};

interface SupplierDialogProps {
  supplier: Supplier | null;
  open: boolean;
  onOpenChange: (o: boolean) => void;
}

const formOf = (supplier: Supplier | null) => textDefaults(supplier, FIELDS);

function SupplierDialog({ supplier, open, onOpenChange }: SupplierDialogProps) {
  const save = useSaveSupplierMutation();
  const {
    values: v,
    set,
    errors,
    showErrors,
  } = useFieldForm(() => formOf(supplier), {
    // A fresh form each time the dialog opens (or opens on another supplier).
    resetFor: open ? (supplier ?? 'new') : null,
    codeFields: { SUPPLIER_EXISTS: 'name' },
  });
  const submit = () =>
    save.mutate(
      {
        id: supplier?.id ?? null,
        body: { ...v, lead_time_days: v.lead_time_days === '' ? null : v.lead_time_days } as never,
      },
      { onSuccess: () => onOpenChange(false), onError: showErrors },
    );
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={supplier ? `Edit ${supplier.name}` : 'Add Supplier'}
      description="Lead time sets when reorder recommendations tell you to order."
      busy={save.isPending}
      form={{ id: 'supplier-form', onSubmit: submitWith(submit) }}
      submitLabel={supplier ? 'Save Changes' : 'Add Supplier'}
      error={errors.form}
    >
      {FIELDS.map((f) => (
        <FormField key={f} label={LABELS[f]} required={f === 'name'} error={errors[f]}>
          <Input
            type={f === 'lead_time_days' ? 'number' : f === 'email' ? 'email' : 'text'}
            value={v[f] ?? ''}
            onChange={(e) => set(f, e.target.value)}
          />
        </FormField>
      ))}
    </FormDialog>
  );
}

const columns: Column<Supplier>[] = [
  {
    key: 'name',
    header: 'Supplier',
    cell: (s) => (
      <NameCell
        name={s.name}
        detail={[s.contact_person, s.phone].filter(Boolean).join(' · ') || '—'}
        phoneDetail={`${s.rejected} rejected`}
      />
    ),
  },
  { key: 'gstin', header: 'GSTIN', cell: (s) => s.gstin ?? '—', hideOnMobile: true },
  {
    key: 'lead',
    header: 'Lead Time',
    cell: (s) => (s.lead_time_days === null ? '—' : `${s.lead_time_days} d`),
    hideOnMobile: true,
  },
  { key: 'items', header: 'Items', align: 'right', cell: (s) => s.items, hideOnMobile: true },
  { key: 'deliveries', header: 'Deliveries', align: 'right', cell: (s) => s.deliveries },
  {
    key: 'on_time',
    header: 'On Time',
    align: 'right',
    cell: (s) => (s.on_time_rate === null ? '—' : `${s.on_time_rate}% (${s.on_time}/${s.with_due_date})`),
  },
  { key: 'rejected', header: 'Rejected', align: 'right', cell: (s) => s.rejected, hideOnMobile: true },
  { key: 'last', header: 'Last Delivery', cell: (s) => <DateText value={s.last_delivery} />, hideOnMobile: true },
];

/** The supplier register with each supplier's performance from real receipts. */
export function SuppliersCard({ canManage, title = 'Suppliers' }: { canManage: boolean; title?: string }) {
  const suppliers = useSuppliers();
  const remove = useDeleteSupplierMutation();
  const rows = useRowDialogs<Supplier>();
  const actions: RowAction<Supplier>[] = canManage
    ? [rows.editAction((s) => s.name), rows.deleteAction((s) => s.name)]
    : [];
  return (
    <Card className="mt-5 min-w-0">
      <CardHeader
        title={title}
        description="On-time deliveries (against the due date entered at receipt) and rejected deliveries, from the ledger."
        actions={
          canManage ? (
            <Button variant="outline" onClick={() => rows.edit('new')}>
              <Plus />
              Add Supplier
            </Button>
          ) : undefined
        }
      />
      <CardBody className="p-0">
        <DataTable
          caption={title}
          rows={suppliers.data}
          loading={suppliers.isPending}
          error={suppliers.error ?? undefined}
          onRetry={() => void suppliers.refetch()}
          getRowId={(s) => s.id}
          columns={columns}
          rowActions={actions}
          empty={{ title: 'No suppliers yet', hint: 'Add the firms you buy reagents and consumables from.' }}
        />
      </CardBody>
      {canManage && (
        <>
          <SupplierDialog supplier={rows.editing} {...rows.dialog} />
          <ConfirmDialog
            {...rows.confirm}
            title="Delete Supplier"
            message={
              rows.deleting ? `${deleteMessage(rows.deleting.name)} A supplier named by items or receipts is kept.` : ''
            }
            busy={remove.isPending}
            onConfirm={() => rows.deleting && remove.mutate(rows.deleting, { onSuccess: rows.deleted })}
          />
        </>
      )}
    </Card>
  );
}
