import { useState } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import type { Supplier } from '@shared/schemas/inventory';
import {
  Button,
  Card,
  CardBody,
  CardHeader,
  ConfirmDialog,
  DataTable,
  DateText,
  Dialog,
  FormField,
  Input,
  deleteMessage,
  type Column,
  type RowAction,
} from '@/components';
import { useDeleteSupplierMutation, useSaveSupplierMutation, useSuppliers } from '../api';
import { serverErrors } from '@/lib/forms';

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

function SupplierDialog(props: SupplierDialogProps) {
  // A fresh form each time the dialog opens (or opens on another supplier).
  return props.open ? <SupplierForm key={props.supplier?.id ?? 'new'} {...props} /> : null;
}

function SupplierForm({ supplier, open, onOpenChange }: SupplierDialogProps) {
  const save = useSaveSupplierMutation();
  const [v, setV] = useState<Record<Field, string>>(
    () =>
      Object.fromEntries(FIELDS.map((f) => [f, supplier && supplier[f] !== null ? String(supplier[f]) : ''])) as Record<
        Field,
        string
      >,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = () => {
    setErrors({});
    save.mutate(
      {
        id: supplier?.id ?? null,
        body: { ...v, lead_time_days: v.lead_time_days === '' ? null : v.lead_time_days } as never,
      },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => {
          const { fields, form } = serverErrors(err, undefined, { SUPPLIER_EXISTS: 'name' });
          setErrors({ ...(fields as Record<string, string>), ...(form === undefined ? {} : { form }) });
        },
      },
    );
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !save.isPending && onOpenChange(o)}
      title={supplier ? `Edit ${supplier.name}` : 'Add Supplier'}
      description="Lead time sets when reorder recommendations tell you to order."
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="supplier-form" loading={save.isPending} loadingText="Saving...">
            {supplier ? 'Save Changes' : 'Add Supplier'}
          </Button>
        </>
      }
    >
      <form
        id="supplier-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="grid gap-4 sm:grid-cols-2"
      >
        {FIELDS.map((f) => (
          <FormField key={f} label={LABELS[f]} required={f === 'name'} error={errors[f]}>
            <Input
              type={f === 'lead_time_days' ? 'number' : f === 'email' ? 'email' : 'text'}
              value={v[f] ?? ''}
              onChange={(e) => setV({ ...v, [f]: e.target.value })}
            />
          </FormField>
        ))}
      </form>
    </Dialog>
  );
}

const columns: Column<Supplier>[] = [
  {
    key: 'name',
    header: 'Supplier',
    cell: (s) => (
      <div className="min-w-0">
        <span className="block font-medium text-slate-900">{s.name}</span>
        <span className="block text-[13px] text-slate-600">
          {[s.contact_person, s.phone].filter(Boolean).join(' · ') || '—'}
        </span>
        {/* On a phone the Rejected column is hidden: its count goes under the name. */}
        <span className="block text-[13px] text-slate-600 md:hidden">{s.rejected} rejected</span>
      </div>
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
  const [editing, setEditing] = useState<Supplier | null>(null);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Supplier | null>(null);
  const actions: RowAction<Supplier>[] = canManage
    ? [
        { label: (s) => `Edit ${s.name}`, icon: <Pencil />, onClick: setEditing },
        { label: (s) => `Delete ${s.name}`, icon: <Trash2 />, onClick: setDeleting, destructive: true },
      ]
    : [];
  return (
    <Card className="mt-5 min-w-0">
      <CardHeader
        title={title}
        description="On-time deliveries (against the due date entered at receipt) and rejected deliveries, from the ledger."
        actions={
          canManage ? (
            <Button variant="outline" onClick={() => setAdding(true)}>
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
          <SupplierDialog open={adding} onOpenChange={setAdding} supplier={null} />
          <SupplierDialog open={editing !== null} onOpenChange={(o) => !o && setEditing(null)} supplier={editing} />
          <ConfirmDialog
            open={deleting !== null}
            onOpenChange={(o) => !o && setDeleting(null)}
            title="Delete Supplier"
            message={deleting ? `${deleteMessage(deleting.name)} A supplier named by items or receipts is kept.` : ''}
            busy={remove.isPending}
            onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
          />
        </>
      )}
    </Card>
  );
}
