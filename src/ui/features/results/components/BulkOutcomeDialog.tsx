import type { BulkVerifyResponse } from '@shared/schemas/results';
import { resultCode } from '@shared/schemas/results';
import { Button, Dialog } from '@/components';

/** After Bulk Validate: how many were verified, and why each of the others was refused. */
export function BulkOutcomeDialog({
  outcome,
  onOpenChange,
}: {
  outcome: BulkVerifyResponse;
  onOpenChange: (open: boolean) => void;
}) {
  const refused = outcome.outcomes.filter((o) => !o.ok);
  return (
    <Dialog
      open
      onOpenChange={onOpenChange}
      title="Bulk Validate"
      description={`${outcome.verified} result${outcome.verified === 1 ? '' : 's'} verified, ${outcome.refused} refused.`}
      footer={<Button onClick={() => onOpenChange(false)}>Close</Button>}
    >
      {refused.length === 0 ? (
        <p className="text-[13px] text-slate-700">Every selected result was verified.</p>
      ) : (
        <section aria-labelledby="refused-title">
          <h3 id="refused-title" className="mb-2 text-[13px] font-semibold text-slate-800">
            Not verified
          </h3>
          <ul className="grid gap-1.5 text-[13px]">
            {refused.map((o) => (
              <li key={o.id} className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900">
                <span className="font-mono text-xs font-medium">{resultCode(o.id)}</span>: {o.message}
              </li>
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  );
}
