import type { ReactNode } from 'react';
import type { PaymentMethod } from '@shared/billing';
import { Card, CardBody, CardHeader, FormField, Input } from '@/components';
import { BillFigures } from './BillFigures';
import { BillLines, type LineEdits } from './BillLines';
import { CataloguePickers } from './CataloguePickers';
import { OverlapWarning } from './Overlaps';
import { PaymentFields } from './PaymentFields';
import type { BillEntryState, PercentField } from './useBillEntry';

const PERCENTS: { field: PercentField; label: string }[] = [{ field: 'discount', label: 'Discount %' }];

export interface BillEntryProps<M extends PaymentMethod> {
  entry: BillEntryState<M>;
  /** The items card: its heading, the line under the heading and what it says before the first item. */
  items: { title: string; icon?: ReactNode; description: string; empty: string };
  /** Which fields a line edits (see BillLines). */
  lineEdits: LineEdits;
  /** False on a lab-only bill: no consultation fee row. */
  showConsultation: boolean;
  /** Buttons under the figures (OP Bill's Print and Save). */
  actions?: ReactNode;
}

/**
 * Writing a bill (spec 2.8, 2.11): the catalogue pickers and the lines, then the Bill Summary with
 * the bill discount and tax, the payment and the figures by the shared bill rule.
 */
export function BillEntry<M extends PaymentMethod>({
  entry,
  items,
  lineEdits,
  showConsultation,
  actions,
}: BillEntryProps<M>) {
  const { draft } = entry;
  const figures = (
    <BillFigures amounts={draft.amounts} showConsultation={showConsultation} discountPercent={draft.discountPercent} />
  );
  return (
    <>
      <Card>
        <CardHeader title={items.title} icon={items.icon} description={items.description} />
        <CardBody className="grid gap-4">
          <CataloguePickers key={draft.generation} onAdd={draft.addItem} />
          {draft.lines.length === 0 ? (
            <p className="rounded-md border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">
              {items.empty}
            </p>
          ) : (
            <BillLines draft={draft} edits={lineEdits} />
          )}
          <OverlapWarning
            overlaps={entry.overlaps}
            confirmed={entry.confirmDuplicates}
            onConfirm={entry.setConfirmDuplicates}
          />
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Bill Summary" />
        <CardBody className="grid gap-5 md:grid-cols-2">
          <div className="grid content-start gap-3">
            <div className="grid grid-cols-2 gap-3">
              {PERCENTS.map(({ field, label }) => (
                // Spec 5: the registration screen takes whole numbers only, and says so.
                <FormField
                  key={field}
                  label={label}
                  error={entry.errors[field]}
                  hint={entry.integerPercents ? 'Whole number, 0 to 100' : undefined}
                >
                  <Input
                    inputMode={entry.integerPercents ? 'numeric' : 'decimal'}
                    value={draft[field]}
                    onChange={(e) => entry.setPercent(field, e.target.value)}
                    onBlur={() => draft.blurPercent()}
                    onFocus={(e) => e.target.select()}
                  />
                </FormField>
              ))}
            </div>
            <PaymentFields
              methods={entry.methods}
              method={entry.method}
              onMethodChange={entry.setMethod}
              amount={entry.amount}
              onAmountChange={entry.setAmount}
              amountError={entry.errors.amount}
              reference={entry.reference}
              onReferenceChange={entry.setReference}
              onReferenceBlur={entry.touchReference}
              referenceError={entry.errors.reference}
            />
          </div>
          {actions ? (
            <div className="grid content-start gap-4">
              {figures}
              {actions}
            </div>
          ) : (
            figures
          )}
        </CardBody>
      </Card>
    </>
  );
}
