import type { FormEvent } from 'react';
import { PhoneCall } from 'lucide-react';
import { criticalCallSchema, resultCode, type ReviewReason, type TestResult } from '@shared/schemas/results';
import { Badge, Button, Dialog, FormDialog, FormField, Input, Textarea } from '@/components';
import { useFieldForm } from '@/lib/forms';
import { formatDateTime, useLabFormat } from '@/lib/format';
import { useCriticalCallMutation, useResult, useVerifyResultMutation } from '../api';
import { useResultDecisions } from '../decisionsApi';
import { autoverifiedLine, DecisionHistory } from './AutoverifyNote';
import { FlagBadge, fullName } from './cells';
import { QcHoldNotice } from './QcHoldNotice';
import { StructuredView } from './StructuredView';

export const REVIEW_WORDS: Record<ReviewReason, string> = {
  abnormal: 'Outside the reference range',
  critical: 'Critical value',
  delta: 'Differs from the previous result beyond the delta limit',
  amended: 'Changed after an earlier verification',
};

/**
 * One result looked at on its own before it is verified: the value against its range, why it was
 * held back from bulk validation, the patient's previous value, who entered it, and for a critical
 * value the call to the doctor (logged here; the report cannot be released without it).
 */
export function ReviewResultDialog({
  result,
  canVerify,
  onOpenChange,
}: {
  result: TestResult;
  canVerify: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const lab = useLabFormat();
  const r = useResult(result).data;
  const verify = useVerifyResultMutation();
  const decisions = useResultDecisions(r.id).data ?? [];
  const busy = verify.isPending;
  // The server refuses it while QC holds it; the notice says why and what releases it.
  const qcHeld = r.status === 'completed' && !!r.qc?.held;
  const title = `Review Result ${resultCode(r.id)}`;
  const description = `${r.test_name} · ${fullName(r)} (${r.patient_number}) · ${r.sample_number}`;
  const body = (
    <div className="grid gap-4 text-[13px]">
      {qcHeld && (
        <QcHoldNotice
          status={r.qc!}
          note="This result was entered after the rejection: it can be validated once the sample is run again after QC passes (the technician confirms the value), or once a supervisor overrides the rejection."
        />
      )}
      <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-600">Result</dt>
        <dd className="flex items-center gap-2 font-semibold text-slate-900">
          {r.result_value} {r.unit}
          <FlagBadge flag={r.flag} />
          {r.is_critical && <Badge tone="red">Critical Value</Badge>}
        </dd>
        <dt className="text-slate-600">Reference range</dt>
        <dd className="text-slate-900">{r.structured ? 'Per parameter, below' : (r.normal_range ?? 'not set')}</dd>
        <dt className="text-slate-600">Previous result</dt>
        <dd className="text-slate-900">
          {r.previous_value
            ? `${r.previous_value} ${r.unit ?? ''} (verified ${formatDateTime(r.previous_at, lab)})`
            : 'None on record'}
        </dd>
        <dt className="text-slate-600">Entered by</dt>
        <dd className="text-slate-900">
          {r.technician_name ?? '—'}
          {r.entered_at && ` on ${formatDateTime(r.entered_at, lab)}`}
          {r.calculated && ' (calculated from other tests)'}
        </dd>
        {r.verified_by_name && (
          <>
            <dt className="text-slate-600">Verified by</dt>
            <dd className="text-slate-900">
              {r.autoverified_by ? autoverifiedLine(r.autoverified_by) : r.verified_by_name}
              {r.verified_at && ` on ${formatDateTime(r.verified_at, lab)}`}
            </dd>
          </>
        )}
      </dl>
      {r.structured && <StructuredView s={r.structured} />}
      {canVerify && r.status === 'completed' && !r.can_verify && r.verify_refusal && (
        <p role="note" className="rounded-md border border-slate-200 bg-slate-50 p-2.5 text-slate-800">
          <span className="font-medium">Not for you to validate:</span> {r.verify_refusal}
        </p>
      )}
      {r.review_reasons.length > 0 && (
        <div role="note" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-amber-950">
          <p className="font-medium">Held back from Bulk Validate:</p>
          <ul className="mt-1 list-disc pl-5">
            {r.review_reasons.map((x) => (
              <li key={x}>{REVIEW_WORDS[x]}</li>
            ))}
          </ul>
        </div>
      )}
      <DecisionHistory decisions={decisions} />
      {r.is_critical && <CriticalCall r={r} />}
    </div>
  );
  // Someone who may not validate it only looks at it: a viewer with Close.
  if (!(canVerify && r.can_verify))
    return (
      <Dialog
        open
        onOpenChange={onOpenChange}
        title={title}
        description={description}
        footer={
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
        }
      >
        {body}
      </Dialog>
    );
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      busy={busy}
      onSubmit={() => verify.mutate(r, { onSuccess: () => onOpenChange(false) })}
      submitLabel="I have reviewed it: Validate"
      busyLabel="Validating..."
      submitDisabled={qcHeld}
      cancelLabel="Close"
    >
      {body}
    </FormDialog>
  );
}

function CriticalCall({ r }: { r: TestResult }) {
  const lab = useLabFormat();
  const log = useCriticalCallMutation();
  const {
    values: { calledTo, readBack, notes },
    set,
    errors,
    setErrors,
    showErrors,
  } = useFieldForm(() => ({ calledTo: '', readBack: false, notes: '' }));
  if (r.critical_call)
    return (
      <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-emerald-950">
        <PhoneCall className="mr-1 inline size-4" aria-hidden="true" />
        Called {r.critical_call.called_to} on {formatDateTime(r.critical_call.called_at, lab)}, value read back
        {r.critical_call.recorded_by_name && ` (logged by ${r.critical_call.recorded_by_name})`}
        {r.critical_call.minutes_to_call !== null && `, ${r.critical_call.minutes_to_call} min after entry`}.
      </p>
    );
  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = criticalCallSchema.safeParse({ called_to: calledTo, read_back: readBack, notes });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    log.mutate({ id: r.id!, body: parsed.data }, { onError: showErrors });
  }
  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-md border border-red-200 bg-red-50/50 p-3">
      <p className="font-medium text-red-900">
        Telephone this critical value and log the call: the report is held until it is logged.
      </p>
      <FormField label="Called (name and role)" required error={errors.called_to}>
        <Input
          value={calledTo}
          onChange={(e) => set('calledTo', e.target.value)}
          placeholder="Dr. Rao, referring doctor"
        />
      </FormField>
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          className="size-4 accent-primary-600"
          checked={readBack}
          onChange={(e) => set('readBack', e.target.checked)}
        />
        The person called read the value back correctly
      </label>
      {errors.read_back && <p className="text-red-700">{errors.read_back}</p>}
      <FormField label="Notes" error={errors.notes}>
        <Textarea rows={2} value={notes} onChange={(e) => set('notes', e.target.value)} />
      </FormField>
      {errors.form && <p className="text-red-700">{errors.form}</p>}
      <div>
        <Button type="submit" variant="outline" loading={log.isPending} loadingText="Logging...">
          <PhoneCall />
          Log Call
        </Button>
      </div>
    </form>
  );
}
