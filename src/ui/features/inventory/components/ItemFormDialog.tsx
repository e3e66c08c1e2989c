import { useMemo } from 'react';
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { ITEM_KINDS, ITEM_STATUSES, type ItemKind } from '@shared/inventory';
import { inventoryCreateFields, type InventoryItem } from '@shared/schemas/inventory';
import { optionalText } from '@shared/schemas/common';
import { FormDialog, FormField, Input, Select } from '@/components';
import { humanize } from '@/lib/format';
import { useCreateItemMutation, useSuppliers, useUpdateItemMutation } from '../api';
import { applyServerErrors, fieldNamed, formError } from '@/lib/forms';
import { useDialogForm } from '@/lib/dialogForm';
import { schemaFields } from '@/lib/schemaFields';

/** The server's fields (inventoryCreateFields) plus the reason a changed stock needs on edit. */
const formSchema = inventoryCreateFields.extend({ stock_reason: optionalText(300, 'Reason') });
type FormIn = z.input<typeof formSchema>;

const KIND_DEFAULTS: Record<ItemKind, { category: string; unit: string }> = {
  general: { category: 'General', unit: 'pcs' },
  reagent: { category: 'Reagents', unit: 'tests' },
  consumable: { category: 'Consumables', unit: 'pcs' },
};

function defaults({ item, kind }: { item: InventoryItem | null; kind: ItemKind }): DefaultValues<FormIn> {
  return {
    item_code: item?.item_code ?? '',
    item_name: item?.item_name ?? '',
    kind: item?.kind ?? kind,
    category: item?.category ?? KIND_DEFAULTS[kind].category,
    unit: item?.unit ?? KIND_DEFAULTS[kind].unit,
    current_stock: String(item?.current_stock ?? 0),
    minimum_stock: String(item?.minimum_stock ?? 0),
    maximum_stock: item?.maximum_stock == null ? '' : String(item.maximum_stock),
    unit_cost: String(item?.unit_cost ?? 0),
    supplier_id: item?.supplier_id == null ? '' : String(item.supplier_id),
    supplier: '',
    status: item?.status ?? 'active',
    catalog_number: item?.catalog_number ?? '',
    storage_temp: item?.storage_temp ?? '',
    expiry_date: '',
    lot_number: '',
    stock_reason: '',
  };
}

export interface ItemFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: add; an item: edit it. */
  item: InventoryItem | null;
  /** The kind a new item gets (Reagents adds reagents). */
  kind: ItemKind;
  /** "Add Reagent", "Add Consumable", "Add Item". */
  addTitle: string;
}

/** Add and edit an item: POST /api/inventory, PUT /api/inventory/:id; the server's 400s show under their fields. */
export function ItemFormDialog({ open, onOpenChange, item, kind, addTitle }: ItemFormDialogProps) {
  const create = useCreateItemMutation();
  const update = useUpdateItemMutation();
  const suppliers = useSuppliers(open);
  const busy = create.isPending || update.isPending;
  const subject = useMemo(() => ({ item, kind }), [item, kind]);
  const form = useDialogForm(formSchema, open, subject, defaults);
  const { errors } = form.formState;

  const showServerErrors = (err: unknown) =>
    applyServerErrors(err, form.setError, fieldNamed(schemaFields(formSchema)), { ITEM_CODE_TAKEN: 'item_code' });

  const onSubmit = form.handleSubmit((v) => {
    const common = {
      item_code: v.item_code,
      item_name: v.item_name,
      kind: v.kind,
      category: v.category,
      unit: v.unit,
      minimum_stock: v.minimum_stock,
      maximum_stock: v.maximum_stock ?? null,
      unit_cost: v.unit_cost,
      status: v.status,
      catalog_number: v.catalog_number ?? null,
      storage_temp: v.storage_temp ?? null,
      ...(v.supplier ? { supplier: v.supplier } : { supplier_id: v.supplier_id ?? null }),
    };
    if (!item) {
      create.mutate(
        {
          ...common,
          current_stock: v.current_stock,
          expiry_date: v.expiry_date ?? null,
          lot_number: v.lot_number ?? null,
        },
        { onSuccess: () => onOpenChange(false), onError: showServerErrors },
      );
      return;
    }
    const patch = {
      ...common,
      ...(v.current_stock !== item.current_stock
        ? { current_stock: v.current_stock, stock_reason: v.stock_reason ?? null }
        : {}),
    };
    update.mutate({ id: item.id, patch }, { onSuccess: () => onOpenChange(false), onError: showServerErrors });
  });

  const showLabFields = (item?.kind ?? kind) !== 'general';
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={item ? `Edit ${item.item_name}` : addTitle}
      description={
        item
          ? 'A new current stock is recorded in the ledger as an adjustment with your reason. Lots and expiry dates change through Receive and the other stock movements.'
          : 'Opening stock is received as the item’s first lot, with its expiry date.'
      }
      busy={busy}
      form={{ id: item ? 'edit-item-form' : 'add-item-form', onSubmit }}
      submitLabel={item ? 'Save Changes' : addTitle}
      error={formError(form)}
    >
      <FormField label="Item Code" required error={errors.item_code?.message}>
        <Input autoComplete="off" {...form.register('item_code')} />
      </FormField>
      <FormField label="Item Name" required error={errors.item_name?.message}>
        <Input autoComplete="off" {...form.register('item_name')} />
      </FormField>
      <FormField label="Category" required error={errors.category?.message}>
        <Input {...form.register('category')} />
      </FormField>
      <FormField
        label="Unit"
        required
        error={errors.unit?.message}
        hint="Stock is counted in whole units (tests, mL, pcs)."
      >
        <Input {...form.register('unit')} />
      </FormField>
      <FormField
        label={item ? 'Current Stock' : 'Opening Stock'}
        error={errors.current_stock?.message}
        hint={item ? 'Change it only after a count; give the reason below.' : undefined}
      >
        <Input type="number" inputMode="numeric" min={0} step={1} {...form.register('current_stock')} />
      </FormField>
      {item ? (
        <FormField label="Reason for a stock change" error={errors.stock_reason?.message}>
          <Input placeholder="e.g. Counted on the shelf" {...form.register('stock_reason')} />
        </FormField>
      ) : (
        <FormField label="Opening Lot Number" error={errors.lot_number?.message}>
          <Input {...form.register('lot_number')} />
        </FormField>
      )}
      {!item && (
        <FormField label="Expiry Date" error={errors.expiry_date?.message} hint="Of the opening stock.">
          <Input type="date" {...form.register('expiry_date')} />
        </FormField>
      )}
      <FormField label="Minimum Stock" error={errors.minimum_stock?.message}>
        <Input type="number" inputMode="numeric" min={0} step={1} {...form.register('minimum_stock')} />
      </FormField>
      <FormField label="Maximum Stock" error={errors.maximum_stock?.message} hint="Optional.">
        <Input type="number" inputMode="numeric" min={0} step={1} {...form.register('maximum_stock')} />
      </FormField>
      <FormField label="Unit Cost (₹)" error={errors.unit_cost?.message}>
        <Input type="number" inputMode="decimal" min={0} step="0.01" {...form.register('unit_cost')} />
      </FormField>
      <FormField label="Supplier" error={errors.supplier_id?.message}>
        <Select
          placeholder="No supplier"
          options={(suppliers.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))}
          {...form.register('supplier_id')}
        />
      </FormField>
      <FormField label="Or a new supplier" error={errors.supplier?.message} hint="Added to the supplier register.">
        <Input {...form.register('supplier')} />
      </FormField>
      <FormField label="Status" required error={errors.status?.message}>
        <Select options={ITEM_STATUSES.map((s) => ({ value: s, label: humanize(s) }))} {...form.register('status')} />
      </FormField>
      {item && (
        <FormField label="Kind" error={errors.kind?.message}>
          <Select options={ITEM_KINDS.map((k) => ({ value: k, label: humanize(k) }))} {...form.register('kind')} />
        </FormField>
      )}
      {showLabFields && (
        <>
          <FormField label="Catalogue Number" error={errors.catalog_number?.message}>
            <Input {...form.register('catalog_number')} />
          </FormField>
          <FormField label="Storage Temperature" error={errors.storage_temp?.message}>
            <Input placeholder="e.g. 2-8 °C" {...form.register('storage_temp')} />
          </FormField>
        </>
      )}
    </FormDialog>
  );
}
