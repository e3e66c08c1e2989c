import { useState, type ReactNode } from 'react';
import { Download, ListPlus, Printer } from 'lucide-react';
import type { Bill, BillItem, Payment } from '@shared/schemas/bills';
import { Badge, Button, DataTable, DateText, Dialog, ErrorPanel, LoadingState, Money, type Column } from '@/components';
import { cn } from '@/lib/cn';
import { useLabFormat } from '@/lib/format';
import { localDate } from '@shared/time';
import { useBill } from '../api';
import { downloadBillPdf, invoiceLockReason, printBillPdf } from './billActions';
import { doctorName, methodLabel, patientName } from '@/lib/billText';
import { RecordPaymentForm, RefundForm } from './PaymentForms';
import { VisitReportButton } from '@/lib/visitReport';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { EditTestsDialog } from './EditTestsDialog';
import { BillReports } from './BillReports';

export interface BillDetailsDialogProps {
  /** The row clicked: shown at once while the full bill (lines, payments) loads. */
  bill: Bill | null;
  onOpenChange: (open: boolean) => void;
  /** create_bills: may record payments and refunds, and add or take off tests. */
  canPay: boolean;
}

const pct = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(2)}%`;

const itemColumns: Column<BillItem>[] = [
  {
    key: 'particulars',
    header: 'Particulars',
    cell: (i) => (
      <div>
        <div className="font-medium text-slate-900">{i.particulars}</div>
        {i.code && <div className="font-mono text-xs text-slate-500">{i.code}</div>}
      </div>
    ),
  },
  { key: 'qty', header: 'Qty', cell: (i) => i.qty, align: 'right' },
  { key: 'price', header: 'Price', cell: (i) => <Money rupees={i.price} />, align: 'right', hideOnMobile: true },
  {
    key: 'gst',
    header: 'GST',
    cell: (i) => (i.tax_category === 'exempt' ? 'Exempt' : pct(i.gst_percent)),
    align: 'right',
    hideOnMobile: true,
  },
  {
    key: 'discount',
    header: 'Disc %',
    cell: (i) => pct(i.discount_percent),
    align: 'right',
    hideOnMobile: true,
  },
  { key: 'total', header: 'Total', cell: (i) => <Money rupees={i.total} />, align: 'right' },
];

/** One payment or refund: when, how, who took it; refunds in red with their reason. */
function PaymentLine({ p }: { p: Payment }) {
  const refund = p.amount < 0;
  const f = useLabFormat();
  return (
    <li className="flex items-start justify-between gap-3 px-3 py-2">
      <div className="min-w-0 text-[13px]">
        <div className="flex flex-wrap items-center gap-1.5">
          <Badge tone={refund ? 'grey' : 'green'}>{refund ? 'Refund' : 'Payment'}</Badge>
          <span className="text-slate-900">{methodLabel(p.method)}</span>
          {p.reference && <span className="text-slate-600">Ref. {p.reference}</span>}
        </div>
        <div className="mt-0.5 text-xs text-slate-600">
          <DateText value={p.created_at} withTime />
          {p.received_by_name && <> · {p.received_by_name}</>}
        </div>
        {p.value_date && p.value_date > localDate(f.timeZone, new Date(p.created_at)) && (
          <div className="mt-0.5 text-xs text-slate-700">
            Counted on <DateText value={p.value_date} /> (the day was closed)
          </div>
        )}
        {p.reason && <div className="mt-0.5 text-xs text-slate-700">Reason: {p.reason}</div>}
      </div>
      <Money rupees={p.amount} className={cn('shrink-0 text-sm font-medium', refund && 'text-red-700')} />
    </li>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function Figure({
  label,
  rupees,
  strong,
  testId,
}: {
  label: string;
  rupees: number;
  strong?: boolean;
  testId?: string;
}) {
  return (
    <div className={cn('flex justify-between gap-4 py-1', strong && 'border-t border-slate-200 pt-2 font-semibold')}>
      <dt className="text-slate-700">{label}</dt>
      <dd data-testid={testId}>
        <Money rupees={rupees} />
      </dd>
    </div>
  );
}

/** Bill Details: the bill's header, lines, figures, payments, and the payment and refund forms. */
export function BillDetailsDialog({ bill: row, onOpenChange, canPay }: BillDetailsDialogProps) {
  const detail = useBill(row?.id ?? null);
  // The fetched bill once loaded (it has lines and payments and reflects new payments at once).
  const bill = detail.data ?? row;
  const cancelled = bill?.status === 'cancelled';
  const me = useCurrentUser();
  const [editing, setEditing] = useState(false);
  const locked = bill ? invoiceLockReason(bill) : null;

  return (
    <Dialog
      open={row !== null}
      onOpenChange={onOpenChange}
      title={bill ? `Bill Details: ${bill.bill_number}` : 'Bill Details'}
      description={bill ? `${patientName(bill)} (${bill.patient_patient_id})` : undefined}
      size="xl"
      footer={
        bill && (
          <>
            {canPay && !cancelled && bill.items && (
              <Button
                variant="outline"
                onClick={() => setEditing(true)}
                disabled={locked !== null}
                title={locked ?? undefined}
              >
                <ListPlus />
                Edit Tests
              </Button>
            )}
            <Button variant="outline" onClick={() => printBillPdf(bill)}>
              <Printer />
              Print
            </Button>
            <Button variant="outline" onClick={() => downloadBillPdf(bill)}>
              <Download />
              Download PDF
            </Button>
            {!cancelled && <VisitReportButton billId={bill.id} label="Lab Report" />}
            <Button variant="secondary" onClick={() => onOpenChange(false)}>
              Close
            </Button>
          </>
        )
      }
    >
      {bill && (
        <div className="grid grid-cols-1 gap-5">
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
            <Fact label="Bill date">
              <DateText value={bill.bill_date} />
            </Fact>
            <Fact label="Due date">
              <DateText value={bill.due_date} />
            </Fact>
            <Fact label="Doctor">{doctorName(bill)}</Fact>
            <Fact label="Payment method">{methodLabel(bill.payment_method)}</Fact>
            <Fact label="Status">
              <span data-testid="detail-status">
                <Badge status={bill.status} />
              </span>
            </Fact>
            <Fact label="Payment status">
              <span data-testid="detail-payment-status">
                <Badge status={bill.payment_status} />
              </span>
            </Fact>
            {bill.notes && (
              <div className="col-span-2">
                <Fact label="Notes">{bill.notes}</Fact>
              </div>
            )}
          </dl>

          {locked && (
            <p
              data-testid="bill-invoice-lock"
              className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-slate-700"
            >
              {locked}
            </p>
          )}

          {cancelled && (
            <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
              Cancelled
              {bill.cancelled_at && (
                <>
                  {' '}
                  on <DateText value={bill.cancelled_at} withTime />
                </>
              )}
              {bill.cancel_reason && <>: {bill.cancel_reason}</>}. A cancelled bill takes no payment.
            </p>
          )}

          {detail.isError ? (
            <ErrorPanel title="Error Loading Bill" query={detail} />
          ) : !bill.items ? (
            <LoadingState text="Loading bill details..." />
          ) : (
            <>
              <section aria-label="Bill items">
                <h3 className="mb-1.5 text-sm font-semibold text-slate-900">Items</h3>
                <div className="rounded-lg border border-slate-200">
                  <DataTable
                    caption="Bill items"
                    columns={itemColumns}
                    rows={bill.items}
                    getRowId={(i) => i.id}
                    empty={{ title: 'No items on this bill' }}
                  />
                </div>
              </section>

              <div className="grid grid-cols-1 gap-5 md:grid-cols-2">
                <section aria-labelledby="payments-title">
                  <h3 id="payments-title" className="mb-1.5 text-sm font-semibold text-slate-900">
                    Payments
                  </h3>
                  {bill.payments && bill.payments.length > 0 ? (
                    <ul aria-label="Payments" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
                      {bill.payments.map((p) => (
                        <PaymentLine key={p.id} p={p} />
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-slate-600">No payments recorded yet.</p>
                  )}
                </section>
                <section aria-labelledby="summary-title">
                  <h3 id="summary-title" className="mb-1.5 text-sm font-semibold text-slate-900">
                    Summary
                  </h3>
                  <dl className="text-sm">
                    <Figure label="Subtotal" rupees={bill.subtotal} />
                    {bill.consultation_fee > 0 && <Figure label="Consultation fee" rupees={bill.consultation_fee} />}
                    <Figure label="Total before discount" rupees={bill.total_before_discount} />
                    <Figure label={`Discount (${pct(bill.discount_percentage)})`} rupees={-bill.discount_amount} />
                    <Figure label="GST (per line)" rupees={bill.tax_amount} />
                    <Figure label="Final total" rupees={bill.final_amount} strong testId="detail-final" />
                    <Figure label="Paid" rupees={bill.paid_amount} testId="detail-paid" />
                    <Figure label="Balance" rupees={bill.balance} strong testId="detail-balance" />
                  </dl>
                </section>
              </div>

              {can(me, 'print_reports') && !cancelled && <BillReports billId={bill.id} />}

              {canPay && !cancelled && (
                <div className="grid gap-3">
                  {/* Keyed on what was paid so the amount restarts at the new balance after each payment. */}
                  {bill.balance > 0 && <RecordPaymentForm key={`pay-${bill.paid_amount}`} bill={bill} />}
                  {bill.paid_amount > 0 && (
                    <div>
                      <RefundForm key={`refund-${bill.paid_amount}`} bill={bill} />
                    </div>
                  )}
                </div>
              )}
            </>
          )}
        </div>
      )}
      {editing && bill && <EditTestsDialog bill={bill} onOpenChange={setEditing} />}
    </Dialog>
  );
}
