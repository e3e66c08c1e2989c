import { useMemo, useState } from 'react';
import { Trash2 } from 'lucide-react';
import { OP_BILL_PAYMENT_METHODS, type PaymentMethod } from '@shared/billing';
import type { Bill } from '@shared/schemas/bills';
import { paiseToRupees } from '@shared/money';
import { Button, FormDialog, FormField, Input, Money, Select } from '@/components';
import { errorMessage } from '@/lib/api';
import { methodLabel } from '@/lib/billText';
import { CataloguePickers, type PickedItem } from '../../shared/CataloguePickers';
import { draftAmounts, newLine, particulars, type DraftLine } from '../../shared/lines';
import { OverlapWarning, useOverlaps } from '../../shared/Overlaps';
import { useEditBillItemsMutation } from '../api';

/** A line of the bill as it will be: kept (charged as billed) or new (priced by the server as at billing). */
type EditLine = DraftLine & { kept: boolean };

function linesOf(bill: Bill): EditLine[] {
  return (bill.items ?? []).map((i) => ({
    ...newLine({ item_type: i.item_type, id: i.item_id, name: i.name, code: i.code ?? '', price: i.price }),
    qty: String(i.qty),
    gst: String(i.gst_percent),
    discount: String(i.discount_percent),
    kept: true,
  }));
}

/**
 * Edit Tests: add tests to a saved bill or take them off, until its samples are drawn. Shows the new
 * total and what is refunded when the patient has paid more than it; the server refuses (409) once a
 * removed test's sample is collected, and says which.
 */
export function EditTestsDialog({ bill, onOpenChange }: { bill: Bill; onOpenChange: (open: boolean) => void }) {
  const [lines, setLines] = useState<EditLine[]>(() => linesOf(bill));
  const [reason, setReason] = useState('');
  const [refundMethod, setRefundMethod] = useState<PaymentMethod>('cash');
  const [confirmed, setConfirmed] = useState(false);
  const [error, setError] = useState<string>();
  const save = useEditBillItemsMutation(bill.id);
  const overlaps = useOverlaps(lines);
  const amounts = useMemo(
    () => draftAmounts(lines, bill.consultation_fee, String(bill.discount_percentage)),
    [lines, bill.consultation_fee, bill.discount_percentage],
  );
  const newTotal = paiseToRupees(amounts.finalPaise);
  const refund = Math.max(0, Math.round((bill.paid_amount - newTotal) * 100) / 100);

  const add = (item: PickedItem) => {
    setError(undefined);
    if (lines.some((l) => l.item_type === item.item_type && l.item_id === item.id)) {
      setError(`${item.name} is already on this bill`);
      return;
    }
    setLines((ls) => [...ls, { ...newLine(item), kept: false }]);
  };

  const submit = () => {
    setError(undefined);
    if (!lines.length) return setError('A bill needs at least one test, profile or package; cancel the bill instead');
    if (overlaps.length && !confirmed) return setError('Remove the duplicate, or tick "Charge them anyway"');
    save.mutate(
      {
        // Kept lines go without a price: the server keeps what they were charged.
        items: lines.map((l) => ({
          item_type: l.item_type,
          item_id: l.item_id,
          qty: Number(l.qty),
          discount_percent: Number(l.discount),
        })),
        reason: reason.trim() || null,
        refund_method: refundMethod,
        ...(overlaps.length && confirmed ? { confirm_duplicates: true } : {}),
      },
      { onSuccess: () => onOpenChange(false), onError: (err) => setError(errorMessage(err)) },
    );
  };

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Edit Tests: ${bill.bill_number}`}
      description="Add tests or take them off until the samples are collected. The bill is worked out again."
      size="lg"
      busy={save.isPending}
      submitLabel="Save Changes"
      onSubmit={submit}
      error={error}
    >
      <div className="grid gap-4">
        <CataloguePickers onAdd={add} />
        <ul aria-label="Tests on the bill" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
          {lines.map((l, i) => (
            <li key={l.key} className="flex items-center gap-3 px-3 py-2 text-[13px]">
              <div className="min-w-0 flex-1">
                <div className="font-medium text-slate-900">{particulars(l)}</div>
                <div className="text-xs text-slate-600">
                  {l.kept ? 'On the bill' : 'New'} · Qty {l.qty}
                </div>
              </div>
              <Money rupees={paiseToRupees(amounts.lines[i]?.totalPaise ?? 0)} className="shrink-0" />
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${l.name}`}
                onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
              >
                <Trash2 />
              </Button>
            </li>
          ))}
        </ul>
        <OverlapWarning overlaps={overlaps} confirmed={confirmed} onConfirm={setConfirmed} />
        <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          <dt className="text-slate-600">Now</dt>
          <dd className="text-right sm:text-left">
            <Money rupees={bill.final_amount} />
          </dd>
          <dt className="text-slate-600">New total</dt>
          <dd className="text-right font-semibold sm:text-left" data-testid="edit-new-total">
            <Money rupees={newTotal} />
          </dd>
          <dt className="text-slate-600">Paid</dt>
          <dd className="text-right sm:text-left">
            <Money rupees={bill.paid_amount} />
          </dd>
          <dt className="text-slate-600">{refund > 0 ? 'To refund' : 'Balance'}</dt>
          <dd className="text-right font-semibold sm:text-left" data-testid="edit-balance">
            <Money rupees={refund > 0 ? refund : Math.max(0, newTotal - bill.paid_amount)} />
          </dd>
        </dl>
        <div className="grid gap-3 sm:grid-cols-2">
          {refund > 0 && (
            <FormField label="Refund by">
              <Select
                value={refundMethod}
                onChange={(e) => setRefundMethod(e.target.value as PaymentMethod)}
                options={OP_BILL_PAYMENT_METHODS.map((m) => ({ value: m, label: methodLabel(m) }))}
              />
            </FormField>
          )}
          <FormField label="Reason">
            <Input value={reason} maxLength={300} onChange={(e) => setReason(e.target.value)} />
          </FormField>
        </div>
      </div>
    </FormDialog>
  );
}
