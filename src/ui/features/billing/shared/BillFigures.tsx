import type { BillAmounts } from '@shared/billing';
import { Money } from '@/components';
import { cn } from '@/lib/cn';

export interface BillFiguresProps {
  amounts: BillAmounts;
  /** False on a lab-only bill: no consultation fee row. */
  showConsultation: boolean;
  discountPercent: number;
}

function Row({ label, paise, strong, testId }: { label: string; paise: number; strong?: boolean; testId?: string }) {
  return (
    <div
      className={cn('flex items-baseline justify-between gap-4 py-1.5', strong && 'border-t border-slate-200 pt-2.5')}
    >
      <dt className={cn('text-slate-700', strong && 'text-[15px] font-semibold text-slate-900')}>{label}</dt>
      <dd
        className={cn('text-right', strong ? 'text-lg font-semibold text-slate-900' : 'text-slate-900')}
        data-testid={testId}
      >
        <Money paise={paise} />
      </dd>
    </div>
  );
}

/** The summary figures, computed by the shared bill rule (the server stores the same numbers). */
export function BillFigures({ amounts: a, showConsultation, discountPercent }: BillFiguresProps) {
  const pct = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(2)}%`;
  return (
    <dl className="text-sm" aria-label="Bill figures">
      <Row label="Subtotal" paise={a.subtotalPaise} testId="bill-subtotal" />
      {showConsultation && <Row label="Consultation fee" paise={a.consultationFeePaise} testId="bill-consultation" />}
      <Row label="Total before discount" paise={a.totalBeforeDiscountPaise} testId="bill-before-discount" />
      <Row label={`Discount amount (${pct(discountPercent)})`} paise={a.discountPaise} testId="bill-discount" />
      {/* GST per line from each test's tax category: diagnostic tests are exempt (src/shared/gst.ts). */}
      <Row label={a.taxPaise > 0 ? 'GST (per line)' : 'GST (exempt lines)'} paise={a.taxPaise} testId="bill-tax" />
      <Row label="Final Total" paise={a.finalPaise} strong testId="bill-final-total" />
    </dl>
  );
}
