import { moneySymbol } from '@/lib/format';
import { useWatch } from 'react-hook-form';
import { ArrowRight } from 'lucide-react';
import {
  DataTable,
  DateText,
  Dialog,
  FormDialog,
  FormField,
  Input,
  Money,
  queryState,
  type Column,
} from '@/components';
import type { PriceChange } from '@shared/schemas/catalogue';
import { usePriceHistory, useUpdatePriceMutation } from '../api';
import { amountText, priceFormSchema } from '../forms';
import { applyServerErrors, formError, topField } from '@/lib/forms';
import { useDialogForm } from '@/lib/dialogForm';
import { formatMarkup, KINDS, markupPercent, type ItemKind } from '../kinds';

/** One priced catalogue item as the Test Pricing table lists it. */
export interface PricedItem {
  kind: ItemKind;
  id: number;
  name: string;
  code: string;
  category: string | null;
  base_price: number;
  price: number;
  status: string;
}

const priceDefaults = (item: PricedItem | null) => ({
  price: amountText(item?.price),
  base_price: amountText(item?.base_price),
});

export interface EditPriceDialogProps {
  item: PricedItem | null;
  onOpenChange: (open: boolean) => void;
}

/** Edit price: base and current price; PUT /api/pricing/:type/:id, which records the change. */
export function EditPriceDialog({ item, onOpenChange }: EditPriceDialogProps) {
  const save = useUpdatePriceMutation();
  const form = useDialogForm(priceFormSchema, item !== null, item, priceDefaults);
  const { errors } = form.formState;

  const [price, base] = useWatch({ control: form.control, name: ['price', 'base_price'] });
  const p = Number(price);
  const b = Number(base);
  const preview =
    price !== '' && base !== '' && Number.isFinite(p) && Number.isFinite(b) ? formatMarkup(markupPercent(p, b)) : '—';

  const onSubmit = form.handleSubmit((v) => {
    if (!item) return;
    save.mutate(
      { kind: item.kind, id: item.id, name: item.name, price: v.price, base_price: v.base_price },
      {
        onSuccess: () => onOpenChange(false),
        onError: (err) => applyServerErrors(err, form.setError, topField(['price', 'base_price'] as const)),
      },
    );
  });

  return (
    <FormDialog
      open={item !== null}
      onOpenChange={onOpenChange}
      size="sm"
      title={item ? `Edit Price: ${item.name}` : 'Edit Price'}
      description="The change is kept in the price history. Bills already issued keep the price they were billed at."
      busy={save.isPending}
      form={{ id: 'edit-price-form', onSubmit, columns: 1 }}
      submitLabel="Save Price"
      error={formError(form)}
    >
      {item && (
        <p className="text-[13px] text-slate-600">
          {KINDS[item.kind].typeLabel} <span className="font-mono">{item.code}</span>
          {item.category ? ` · ${item.category}` : ''}
        </p>
      )}
      <FormField
        label={`Base Price (${moneySymbol()})`}
        required
        error={errors.base_price?.message}
        hint="Cost or reference price."
      >
        <Input type="number" inputMode="decimal" min={0} step="0.01" {...form.register('base_price')} />
      </FormField>
      <FormField
        label={`Current Price (${moneySymbol()})`}
        required
        error={errors.price?.message}
        hint="What patients are charged from now on."
      >
        <Input type="number" inputMode="decimal" min={0} step="0.01" {...form.register('price')} />
      </FormField>
      <p className="text-sm text-slate-700" aria-live="polite">
        Markup: <span className="font-semibold tabular-nums">{preview}</span>
      </p>
    </FormDialog>
  );
}

function Change({ from, to }: { from: number | null; to: number }) {
  if (from === null) return <Money rupees={to} />;
  if (from === to) return <Money rupees={to} className="text-slate-500" />;
  return (
    <span className="inline-flex items-center gap-1">
      <Money rupees={from} className="text-slate-500 line-through decoration-slate-400" />
      <ArrowRight className="size-3 text-slate-400" aria-label="to" />
      <Money rupees={to} className="font-medium" />
    </span>
  );
}

const who = (h: PriceChange) => h.changed_by_email ?? 'System';

/** Phones show two columns: when (and who, underneath) and price (and base price, underneath). */
const historyColumns: Column<PriceChange>[] = [
  {
    key: 'when',
    header: 'Changed At',
    cell: (h) => (
      <div>
        <DateText value={h.changed_at} withTime />
        <div className="text-xs break-all text-slate-500 md:hidden">{who(h)}</div>
      </div>
    ),
  },
  { key: 'who', header: 'Changed By', cell: (h) => <span className="break-all">{who(h)}</span>, hideOnMobile: true },
  {
    key: 'base',
    header: 'Base Price',
    align: 'right',
    cell: (h) => <Change from={h.old_base_price} to={h.new_base_price} />,
    hideOnMobile: true,
  },
  {
    key: 'price',
    header: 'Price',
    align: 'right',
    cell: (h) => (
      <span className="inline-flex flex-col items-end">
        <Change from={h.old_price} to={h.new_price} />
        {h.old_price === null && <span className="text-xs text-slate-500">first price</span>}
        <span className="text-xs text-slate-500 md:hidden">
          base <Change from={h.old_base_price} to={h.new_base_price} />
        </span>
      </span>
    ),
  },
];

export interface PriceHistoryDialogProps {
  item: PricedItem | null;
  onOpenChange: (open: boolean) => void;
}

/** Price history: every change of the item's price, newest first (who, when, old, new). */
export function PriceHistoryDialog({ item, onOpenChange }: PriceHistoryDialogProps) {
  const history = usePriceHistory(item?.kind ?? 'test', item?.id ?? null);
  return (
    <Dialog
      open={item !== null}
      onOpenChange={onOpenChange}
      size="lg"
      title={item ? `Price History: ${item.name}` : 'Price History'}
      description="Newest first."
    >
      <DataTable
        caption="Price history"
        columns={historyColumns}
        rows={history.data}
        getRowId={(h) => h.id}
        {...queryState(history)}
        skeletonRows={3}
        errorTitle="Could not load the price history"
        empty={{ title: 'No price changes recorded' }}
      />
    </Dialog>
  );
}
