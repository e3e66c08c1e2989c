import { useQuery, useQueryClient } from '@tanstack/react-query';
import { payersApi } from '@shared/api/payers';
import { PAYER_TYPE_LABELS, type Payer } from '@shared/schemas/payers';
import { payerPriceOn } from '@shared/payerPrice';
import { rupeesToPaise } from '@shared/money';
import { localDate } from '@shared/time';
import { FormField, Select } from '@/components';
import { call } from '@/lib/api';
import { formatMoney, useLabFormat } from '@/lib/format';
import type { DraftLine } from '../../shared/lines';

const activePayers = ['payers', 'list', { status: 'active', limit: 200, for: 'bill' }] as const;

/**
 * Who pays the bill: the patient (Self Pay) or a corporate client, insurer/TPA, hospital or collection
 * centre. Picking a payer prices every line from its list in force today, else the lab's price less
 * its discount (the server's rule, src/shared/payerPrice.ts); what the payer owes goes on its account.
 */
export function PayerPicker({
  value,
  onChange,
  error,
}: {
  value: Payer | null;
  /** The payer and the pricing of its lines (null: Self Pay, the catalogue's prices). */
  onChange: (payer: Payer | null, price: ((l: DraftLine) => number) | null) => void;
  error?: string;
}) {
  const fmt = useLabFormat();
  const qc = useQueryClient();
  const payers = useQuery({
    queryKey: activePayers,
    queryFn: ({ signal }) => call(payersApi.list, { query: { status: 'active', limit: 200 } }, signal),
  });
  const pick = async (id: string) => {
    const payer = payers.data?.payers.find((p) => String(p.id) === id) ?? null;
    if (!payer) {
      onChange(null, null);
      return;
    }
    const { prices } = await qc.fetchQuery({
      queryKey: ['payers', 'prices', payer.id],
      queryFn: () => call(payersApi.prices, { params: { id: payer.id } }),
    });
    const today = localDate(fmt.timeZone);
    onChange(
      payer,
      (l) =>
        payerPriceOn(
          prices,
          { item_type: l.item_type, item_id: l.item_id, labPricePaise: rupeesToPaise(l.lab_price) },
          payer.discount_percent,
          today,
        ) / 100,
    );
  };
  const limitLeft =
    value && value.credit_limit !== null ? Math.round((value.credit_limit - value.balance) * 100) : null;
  return (
    <FormField
      label="Bill to"
      error={error ?? (payers.error ? 'The payers could not be loaded' : undefined)}
      hint={
        value
          ? `${PAYER_TYPE_LABELS[value.type]} · terms ${value.payment_terms_days} days${limitLeft !== null ? ` · ${formatMoney(limitLeft)} of credit left` : ''}`
          : 'The patient pays (Self Pay)'
      }
    >
      <Select
        value={value ? String(value.id) : ''}
        onChange={(e) => void pick(e.target.value)}
        options={[
          { value: '', label: 'Self Pay' },
          ...(payers.data?.payers ?? []).map((p) => ({
            value: String(p.id),
            label: `${p.name} (${PAYER_TYPE_LABELS[p.type]})`,
          })),
        ]}
      />
    </FormField>
  );
}
