import type { BulkVerifyResponse } from '@shared/schemas/results';
import { Badge, FormDialog, LoadingState, ErrorPanel } from '@/components';
import { useResultSheet, useVerifySampleMutation } from '../api';
import { FlagBadge } from './cells';
import { REVIEW_WORDS } from './ReviewResultDialog';

/**
 * Validate a sample as a unit: its whole report on one screen, each result with its range, flag,
 * the patient's previous value and who entered it, then one action for the results awaiting
 * validation. Abnormal results are shown here and may be validated with the rest.
 */
export function SampleValidationDialog({
  sampleId,
  onOpenChange,
  onDone,
}: {
  sampleId: number;
  onOpenChange: (open: boolean) => void;
  onDone: (out: BulkVerifyResponse) => void;
}) {
  const sheet = useResultSheet(sampleId);
  const verify = useVerifySampleMutation();
  const rows = sheet.data?.tests ?? [];
  // Only what the server will take from this user (can_verify) and QC does not hold; the others say why in their row.
  const pending = rows.flatMap((t) =>
    t.result?.can_verify && t.result.id !== null && !t.result.qc?.held ? [t.result.id] : [],
  );
  const s = sheet.data?.sample;
  return (
    <FormDialog
      open
      size="xl"
      onOpenChange={onOpenChange}
      title={s ? `Validate Sample ${s.sample_number}` : 'Validate Sample'}
      description={
        s
          ? `${s.first_name} ${s.last_name} (${s.patient_number}) · ${s.age_text ?? '—'} / ${s.gender ?? '—'}`
          : undefined
      }
      busy={verify.isPending}
      onSubmit={() => verify.mutate({ sampleId, ids: pending }, { onSuccess: onDone })}
      submitLabel={`Validate ${pending.length} ${pending.length === 1 ? 'result' : 'results'}`}
      busyLabel="Validating..."
      submitDisabled={pending.length === 0}
      cancelLabel="Close"
    >
      {sheet.isPending ? (
        <LoadingState text="Loading the sample's results..." />
      ) : sheet.isError ? (
        <ErrorPanel title="Could not load the sample" query={sheet} />
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-[13px]">
            <caption className="sr-only">Results of the sample</caption>
            <thead className="text-left text-xs text-slate-600 uppercase">
              <tr>
                <th className="py-1 pr-3">Test</th>
                <th className="py-1 pr-3">Result</th>
                <th className="py-1 pr-3">Range</th>
                <th className="py-1 pr-3">Previous</th>
                <th className="py-1 pr-3">Entered by</th>
                <th className="py-1">Status</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((t) => {
                const r = t.result;
                return (
                  <tr key={t.test_id} className="align-top">
                    <td className="py-1.5 pr-3 text-slate-900">{t.test_name}</td>
                    <td className="py-1.5 pr-3">
                      {r?.result_value ? (
                        <span className="flex flex-wrap items-center gap-1">
                          <strong>{r.result_value}</strong> {r.unit}
                          <FlagBadge flag={r.flag} />
                          {r.is_critical && <Badge tone="red">Critical</Badge>}
                        </span>
                      ) : (
                        <span className="text-slate-500">Not entered</span>
                      )}
                      {r?.qc?.held && (
                        <span className="block text-xs font-medium text-red-800">
                          QC held: {r.qc.holds.map((h) => `${h.level ?? h.name} (${h.rules.join(', ')})`).join('; ')}
                        </span>
                      )}
                      {r && r.review_reasons.length > 0 && (
                        <span className="block text-xs text-amber-800">
                          {r.review_reasons.map((x) => REVIEW_WORDS[x]).join('; ')}
                        </span>
                      )}
                    </td>
                    <td className="py-1.5 pr-3">{t.normal_range ?? '—'}</td>
                    <td className="py-1.5 pr-3">{r?.previous_value ?? '—'}</td>
                    <td className="py-1.5 pr-3">{r?.technician_name ?? '—'}</td>
                    <td className="py-1.5">
                      {r ? <Badge status={r.status} /> : <Badge status="pending" />}
                      {r?.status === 'completed' && !r.can_verify && r.verify_refusal && (
                        <span className="mt-0.5 block max-w-56 text-xs text-slate-600">{r.verify_refusal}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </FormDialog>
  );
}
