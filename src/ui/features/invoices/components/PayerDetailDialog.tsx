import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import type { Payer, PayerPrice } from '@shared/schemas/payers';
import type { CatalogueItemType } from '@shared/api/catalogue';
import { payersApi } from '@shared/api/payers';
import { addDays, localDate } from '@shared/time';
import { NameCell, Button, DataTable, Dialog, FormField, Input, Money, Select, type Column } from '@/components';
import { Tabs } from '@/components/Tabs';
import { StatementLedger, useStatementPeriod } from '@/components/StatementLedger';
import { contractUrl } from '@/lib/api';
import { useCatalogueList } from '@/lib/catalogue';
import { useLabFormat, formatDate } from '@/lib/format';
import { useAddPayerPrice, usePayerPrices, usePayerStatement, useRemovePayerPrice } from '../api';
import { fieldErrors } from '@/lib/forms';

const KIND_LABEL: Record<CatalogueItemType, string> = { test: 'Test', profile: 'Profile', package: 'Package' };

/** A payer's dated price list and its statement for a period (on screen and as PDF). */
export function PayerDetailDialog({
  payer,
  tab,
  canManage,
  onTabChange,
  onClose,
}: {
  payer: Payer | null;
  tab: 'prices' | 'statement';
  canManage: boolean;
  onTabChange: (t: 'prices' | 'statement') => void;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={payer !== null}
      onOpenChange={(o) => !o && onClose()}
      size="xl"
      title={payer?.name ?? ''}
      description={
        payer
          ? `Owes ${new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }).format(payer.balance)} · terms ${payer.payment_terms_days} days · ${payer.discount_percent}% off the lab’s prices where its list names nothing`
          : undefined
      }
    >
      {payer && (
        <Tabs
          label={`${payer.name}: price list and statement`}
          value={tab}
          onValueChange={(v) => onTabChange(v === 'statement' ? 'statement' : 'prices')}
          tabs={[
            {
              value: 'prices',
              label: 'Price List',
              content: tab === 'prices' ? <PriceList payer={payer} canManage={canManage} /> : null,
            },
            {
              value: 'statement',
              label: 'Statement',
              content: tab === 'statement' ? <Statement payer={payer} /> : null,
            },
          ]}
        />
      )}
    </Dialog>
  );
}

function PriceList({ payer, canManage }: { payer: Payer; canManage: boolean }) {
  const prices = usePayerPrices(payer.id);
  const remove = useRemovePayerPrice();
  const fmt = useLabFormat();
  const columns: Column<PayerPrice>[] = [
    {
      key: 'item',
      header: 'Item',
      cell: (p) => <NameCell name={p.item_name} detail={`${KIND_LABEL[p.item_type]} · ${p.item_code}`} />,
    },
    {
      key: 'lab',
      header: 'Lab price',
      align: 'right',
      cell: (p) => <Money rupees={p.lab_price} />,
      hideOnMobile: true,
    },
    { key: 'price', header: 'Payer price', align: 'right', cell: (p) => <Money rupees={p.price} /> },
    {
      key: 'dates',
      header: 'In force',
      cell: (p) =>
        `${formatDate(p.effective_from, fmt)} – ${p.effective_to ? formatDate(p.effective_to, fmt) : 'until changed'}`,
    },
  ];
  return (
    <div className="grid gap-4 pt-3">
      <DataTable
        columns={columns}
        rows={prices.data}
        getRowId={(p) => p.id}
        caption={`Price list of ${payer.name}`}
        loading={prices.isPending}
        error={prices.error}
        errorTitle="Error Loading Prices"
        onRetry={() => void prices.refetch()}
        empty={{
          title: 'No prices of its own',
          hint: `Bills for ${payer.name} use the lab’s prices less ${payer.discount_percent}%.`,
        }}
        rowActions={
          canManage
            ? [
                {
                  label: (p) => `Remove the price of ${p.item_name} from ${p.effective_from}`,
                  icon: <Trash2 />,
                  destructive: true,
                  onClick: (p) => remove.mutate({ id: payer.id, priceId: p.id }),
                },
              ]
            : undefined
        }
      />
      {canManage && <AddPrice payer={payer} />}
    </div>
  );
}

function AddPrice({ payer }: { payer: Payer }) {
  const fmt = useLabFormat();
  const add = useAddPayerPrice();
  const [kind, setKind] = useState<CatalogueItemType>('test');
  const [item, setItem] = useState('');
  const [price, setPrice] = useState('');
  const [from, setFrom] = useState(localDate(fmt.timeZone));
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const items = useCatalogueList(kind, { status: 'active' });
  return (
    <form
      className="grid gap-3 rounded-md border border-slate-200 p-3 sm:grid-cols-3"
      onSubmit={(e) => {
        e.preventDefault();
        setErrors({});
        add.mutate(
          {
            id: payer.id,
            body: {
              item_type: kind,
              item_id: item === '' ? (undefined as unknown as number) : Number(item),
              price: price as unknown as number,
              effective_from: from,
              effective_to: to || null,
            },
          },
          {
            onSuccess: () => {
              setItem('');
              setPrice('');
            },
            onError: (err) => setErrors(((e) => (e.form === undefined ? e : { item_id: e.form }))(fieldErrors(err))),
          },
        );
      }}
    >
      <p className="text-sm font-medium text-slate-900 sm:col-span-3">Add a price</p>
      <FormField label="Kind">
        <Select
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as CatalogueItemType);
            setItem('');
          }}
          options={(['test', 'profile', 'package'] as const).map((k) => ({ value: k, label: KIND_LABEL[k] }))}
        />
      </FormField>
      <FormField label="Item" error={errors.item_id ?? errors.item_type} className="sm:col-span-2">
        <Select
          value={item}
          onChange={(e) => setItem(e.target.value)}
          placeholder={items.isPending ? 'Loading...' : 'Select an item'}
          options={(items.data ?? []).map((i) => ({ value: String(i.id), label: `${i.name} (₹${i.price})` }))}
        />
      </FormField>
      <FormField label="Price (₹)" error={errors.price}>
        <Input inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
      </FormField>
      <FormField label="From" error={errors.effective_from}>
        <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      </FormField>
      <FormField label="To" error={errors.effective_to} hint="Empty: until changed">
        <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      </FormField>
      <div className="sm:col-span-3">
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Adding...' : 'Add Price'}
        </Button>
      </div>
    </form>
  );
}

function Statement({ payer }: { payer: Payer }) {
  const period = useStatementPeriod();
  const { from, to } = period;
  return (
    <StatementLedger
      period={period}
      query={usePayerStatement(payer.id, from, to)}
      pdfHref={contractUrl(payersApi.statementPdf, { params: { id: payer.id }, query: { from, to } })}
      caption={`Statement of ${payer.name}`}
      actions={
        <Button variant="ghost" size="sm" onClick={() => period.setRange({ from: addDays(to, -89), to })}>
          Last 90 days
        </Button>
      }
    />
  );
}
