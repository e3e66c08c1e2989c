import { useState } from 'react';
import { ArrowLeft, CheckCircle2 } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResultSheet } from '@shared/schemas/results';
import { Button, Dialog, ErrorPanel, LoadingState, MachineSelect } from '@/components';
import { ApiError, call, fieldErrorMessage } from '@/lib/api';
import { samplesApi } from '@shared/api/samples';
import { notify } from '@/lib/notify';
import { useCurrentUser } from '@/lib/session';
import { resultKeys, useResultSheet, useSaveResultSheetMutation } from '../api';
import { SamplePicker } from './SamplePicker';
import { editable, jobsOf, ResultSheetForm, type RowDraft } from './ResultSheetForm';

const FORM_ID = 'result-sheet';
const FLAG_WORD: Record<string, string> = { high: 'High', low: 'Low', abnormal: 'Abnormal', normal: 'Normal' };

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Opened from a pending row: go straight to that sample's sheet. */
  sampleId?: number | null;
}

/** Enter Results: pick a sample (scan or type), then one row per ordered test; each row is POSTed (or PUT). */
export function EnterResultsDialog({ open, onOpenChange, sampleId: initial = null }: Props) {
  const [sampleId, setSampleId] = useState<number | null>(initial);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [saving, setSaving] = useState(false);
  // The machine that ran this sample's tests (optional); kept for the next sample of the same run.
  const [machine, setMachine] = useState<number | null>(null);
  const [opened, setOpened] = useState({ open, initial });
  // Each opening starts at the sample it was opened for (or at the picker).
  if (opened.open !== open || opened.initial !== initial) {
    setOpened({ open, initial });
    if (open) {
      setSampleId(initial);
      setErrors({});
    }
  }
  const sheet = useResultSheet(open ? sampleId : null);
  const saveSheet = useSaveResultSheetMutation();
  const me = useCurrentUser();
  const complete = useCompleteSampleMutation();

  async function save(s: ResultSheet, drafts: Record<number, RowDraft>) {
    const { jobs, errors: invalid } = jobsOf(s, drafts);
    setErrors(invalid);
    if (Object.keys(invalid).length) return;
    if (!jobs.length) {
      notify.info('Nothing to save', 'Type a result for at least one test.');
      return;
    }
    setSaving(true);
    // One request for the whole sheet: the server stores every row or none, so a closed page or
    // a dropped connection never leaves half a sheet saved.
    try {
      const results = await saveSheet.mutateAsync({
        sampleId: s.sample.id,
        body: {
          equipment_id: machine ?? undefined,
          rows: jobs.map(({ row, draft }) => ({
            test_id: row.test_id,
            result_id: row.result?.id ?? undefined,
            ...draft,
            unit: draft.unit ?? undefined,
            notes: draft.notes ?? undefined,
          })),
        },
      });
      setErrors({});
      notify.success(
        `${results.length} result${results.length === 1 ? '' : 's'} saved for ${s.sample.sample_number}`,
        results
          .map(
            (r) =>
              `${r.test_name} ${r.result_value}${r.unit ? ` ${r.unit}` : ''}${r.flag ? ` (${FLAG_WORD[r.flag] ?? r.flag}${r.is_critical ? ', critical' : ''})` : ''}`,
          )
          .join(' · '),
      );
      // The server's word on the machine (past its calibration, not operational), kept on each result.
      for (const w of new Set(results.map((r) => r.equipment_warning).filter(Boolean)))
        notify.warning('Machine warning', `${w}. The results carry this warning.`);
      onOpenChange(false);
    } catch (err) {
      // Each bad row is named by the server (rows.<i>.<field>): its message goes under that row.
      const failed: Record<number, string> = {};
      if (err instanceof ApiError)
        for (const d of err.details) {
          const at = /^rows\.(\d+)\./.exec(d.path);
          const job = at ? jobs[Number(at[1])] : undefined;
          if (job) failed[job.row.test_id] = d.message;
        }
      setErrors(failed);
      notify.error(
        'Results not saved',
        Object.keys(failed).length
          ? `${Object.keys(failed).length === 1 ? 'One row needs' : `${Object.keys(failed).length} rows need`} a correction; nothing was saved. ${Object.values(failed)[0]}`
          : fieldErrorMessage(err),
      );
    } finally {
      setSaving(false);
    }
  }

  const s = sheet.data;
  // Nothing to type into once every row is verified or the sample is closed.
  const writable = s ? s.can_enter && s.tests.some(editable) : true;
  const canComplete = s?.all_verified && s.sample.status === 'processing' && me.permissions.includes('manage_samples');
  const footer =
    sampleId === null ? (
      <Button variant="outline" onClick={() => onOpenChange(false)}>
        Cancel
      </Button>
    ) : (
      <>
        {initial === null && (
          <Button variant="ghost" onClick={() => setSampleId(null)} className="mr-auto" aria-label="Another Sample">
            <ArrowLeft />
            {/* Text hidden on phones so the footer keeps Save on one line with the others. */}
            <span className="hidden sm:inline">Another Sample</span>
          </Button>
        )}
        {canComplete && (
          <Button
            variant="outline"
            loading={complete.isPending}
            loadingText="Completing..."
            onClick={() => complete.mutate({ id: s.sample.id, code: s.sample.sample_number })}
          >
            <CheckCircle2 />
            Complete Sample
          </Button>
        )}
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          {writable ? 'Cancel' : 'Close'}
        </Button>
        {writable && (
          <Button type="submit" form={FORM_ID} loading={saving} loadingText="Saving..." disabled={!s}>
            Save Results
          </Button>
        )}
      </>
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={s && sampleId !== null ? `Enter Results: ${s.sample.sample_number}` : 'Enter Results'}
      description={
        sampleId === null
          ? 'Scan or type the sample, then enter a value for each ordered test.'
          : 'The server flags each value against the range for this patient.'
      }
      size="xl"
      footer={footer}
    >
      {sampleId === null ? (
        <SamplePicker onPick={setSampleId} />
      ) : sheet.isPending ? (
        <LoadingState text="Loading the sample's tests..." />
      ) : sheet.isError ? (
        <ErrorPanel title="Error Loading Test Results" query={sheet} retryLabel="Retry" />
      ) : (
        <>
          {s!.all_verified && (
            <p
              role="status"
              className="mb-3 rounded-md border border-green-200 bg-green-50 p-3 text-[13px] text-green-900"
            >
              Every ordered test has a verified result
              {s!.sample.status === 'processing' ? ': the sample can now be completed.' : '.'}
            </p>
          )}
          {writable && <MachineSelect value={machine} onChange={setMachine} className="mb-3 max-w-md" />}
          <ResultSheetForm
            key={s!.sample.id}
            sheet={s!}
            formId={FORM_ID}
            errors={errors}
            onSubmit={(d) => void save(s!, d)}
          />
        </>
      )}
    </Dialog>
  );
}

/** Staff complete a sample once every result is verified (never automatically). */
function useCompleteSampleMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: number; code: string }) =>
      call(samplesApi.changeStatus, { params: { id }, body: { status: 'completed', notes: 'All results verified' } }),
    onSuccess: () => {
      notify.success('Sample status updated to completed');
      return Promise.all([
        qc.invalidateQueries({ queryKey: resultKeys.all }),
        qc.invalidateQueries({ queryKey: ['samples'] }),
      ]);
    },
    onError: (err) => notify.error('Failed to update sample status', err),
  });
}
