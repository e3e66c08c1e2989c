import { useState, type ReactNode } from 'react';
import { ShieldAlert } from 'lucide-react';
import type { QcHold, QcTestStatus } from '@shared/schemas/qc';
import type { ResultSheetRow } from '@shared/schemas/results';
import { Button, FormField, Textarea } from '@/components';
import { formatDateTime, useLabFormat } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { useConfirmResultMutation, useOverrideQcRunMutation } from '../api';

/** "Haemoglobin Level 2 (1-3s) at 02/12/2026 07:45": the words a technician and a validator both read. */
function holdText(testName: string, h: QcHold, lab: ReturnType<typeof useLabFormat>): string {
  return `${testName} ${h.level ?? h.name} (${h.rules.join(', ')}) at ${formatDateTime(h.performed_at, lab)}`;
}

/**
 * The QC state of a test where results are entered and reviewed: which control level was rejected,
 * by which rule and when, what it holds, and for a supervisor the override of that rejection.
 * `passedSince`: the rejection holds this result only because it was entered before QC passed.
 */
export function QcHoldNotice({
  status,
  note,
  passedSince = false,
  children,
}: {
  status: QcTestStatus;
  note: string;
  passedSince?: boolean;
  children?: ReactNode;
}) {
  const lab = useLabFormat();
  const canOverride = useCurrentUser().permissions.includes('manage_lab');
  const [open, setOpen] = useState<number | null>(null);
  const tone = passedSince ? 'border-amber-200 bg-amber-50 text-amber-950' : 'border-red-200 bg-red-50 text-red-950';
  return (
    <div role="alert" className={`rounded-md border p-3 text-[13px] ${tone}`}>
      <ul className="grid gap-2">
        {status.holds.map((h) => (
          <li key={h.run_id} className="flex items-start gap-1.5">
            <ShieldAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <div className="min-w-0">
              <p className="font-semibold">
                {passedSince ? 'Held by an earlier QC rejection: ' : 'QC rejected: '}
                {holdText(status.test_name, h, lab)}
                {passedSince ? '' : ' — results held'}
              </p>
              <p className="text-xs opacity-80">
                {h.control_id} · lot {h.lot_number} · value {h.value} (z {h.z_score.toFixed(2)})
                {h.equipment_name ? ` · on ${h.equipment_name}` : ''}
              </p>
              {canOverride &&
                (open === h.run_id ? (
                  <OverrideForm hold={h} testName={status.test_name} onDone={() => setOpen(null)} />
                ) : (
                  <Button variant="outline" size="sm" className="mt-1" onClick={() => setOpen(h.run_id)}>
                    Override Rejection...
                  </Button>
                ))}
            </div>
          </li>
        ))}
      </ul>
      <p className="mt-2">{note}</p>
      {children}
    </div>
  );
}

function OverrideForm({ hold, testName, onDone }: { hold: QcHold; testName: string; onDone: () => void }) {
  const override = useOverrideQcRunMutation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const label = `Reason to accept ${testName} ${hold.level ?? hold.name} anyway`;
  return (
    <div className="mt-2 grid gap-2 rounded-md border border-red-200 bg-white p-2 text-slate-900">
      <FormField label={label} required error={error}>
        <Textarea rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="destructive"
          size="sm"
          loading={override.isPending}
          loadingText="Overriding..."
          onClick={() => {
            if (!reason.trim()) return setError('Reason is required');
            setError(undefined);
            override.mutate({ runId: hold.run_id, reason: reason.trim() }, { onSuccess: onDone });
          }}
        >
          Override Rejection
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone} disabled={override.isPending}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/**
 * The QC state on a row of the entry sheet. A value entered while a level was rejected stays held
 * after QC passes until the sample is run again: the same value is confirmed here (entered anew),
 * a different one typed and saved. A row open for entry warns before a value is typed.
 */
export function RowQcNotice({ row, open }: { row: ResultSheetRow; open: boolean }) {
  const confirm = useConfirmResultMutation();
  const r = row.result;
  if (r?.status === 'completed' && r.qc?.held) {
    const passedSince = !row.qc.held;
    return (
      <div className="mb-2">
        <QcHoldNotice
          status={r.qc}
          passedSince={passedSince}
          note={
            passedSince
              ? 'QC has passed since this value was entered. Run the sample again: confirm the value if the re-run gives the same, or type the new one and save.'
              : 'This value was entered after the rejection. Once the level passes a re-run, run the sample again and confirm or correct the value.'
          }
        >
          {passedSince && open && (
            <Button
              variant="outline"
              size="sm"
              className="mt-2"
              loading={confirm.isPending}
              loadingText="Confirming..."
              onClick={() => confirm.mutate(r)}
            >
              Confirm {r.result_value}
              {r.unit ? ` ${r.unit}` : ''} (re-run gave the same)
            </Button>
          )}
        </QcHoldNotice>
      </div>
    );
  }
  if (!open || !row.qc.held || r?.status === 'verified') return null;
  return (
    <div className="mb-2">
      <QcHoldNotice
        status={row.qc}
        note="A value entered now is held: it cannot be validated until the level passes a re-run (then run the sample again) or a supervisor overrides the rejection."
      />
    </div>
  );
}
