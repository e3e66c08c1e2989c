import { useState } from 'react';
import type { Connection } from '@shared/schemas/connections';
import { UNMATCHED_REASON_LABELS } from '@shared/schemas/connections';
import { REPLAY_OUTCOME_LABELS, type ReplayRow } from '@shared/schemas/capture-replay';
import { INSTRUMENT_PRESETS } from '@shared/schemas/instrument-profiles';
import { Badge, DataTable, FormDialog, FormField, Input, Textarea, type Column } from '@/components';
import { fieldErrors } from '@/lib/forms';
import { formatCount } from '@/lib/format';
import { useReplayCapture } from '../interfaces-api';

const outcomeTone: Record<ReplayRow['outcome'], 'green' | 'amber' | 'grey'> = {
  entered: 'green',
  unmatched: 'amber',
  ignored: 'grey',
  skipped: 'grey',
};

const columns: Column<ReplayRow>[] = [
  {
    key: 'specimen',
    header: 'Specimen',
    cell: (r) => (
      <div>
        <div className="font-medium">{r.specimen_id || '(none sent)'}</div>
        <div className="text-xs text-slate-600">
          {r.sample_code ? `Sample ${r.sample_code}` : `Message ${r.message}`}
        </div>
      </div>
    ),
    // Below md the specimen heads the value's cell instead: two columns fit 390 px.
    hideOnMobile: true,
  },
  {
    key: 'value',
    header: 'Code and value',
    cell: (r) => (
      <div>
        <div className="font-medium md:hidden">{r.specimen_id || '(none sent)'}</div>
        <span className="font-mono break-all">{r.code || '(no code)'}</span>{' '}
        <span className="font-medium break-all">{r.value}</span> {r.unit}
        {r.flag && <span className="text-xs text-slate-600"> · flag {r.flag}</span>}
        {r.test_name && <div className="text-xs text-slate-600">{r.test_name}</div>}
      </div>
    ),
  },
  {
    key: 'outcome',
    header: 'Would become',
    cell: (r) => (
      <div>
        <Badge tone={outcomeTone[r.outcome]}>
          {r.reason ? UNMATCHED_REASON_LABELS[r.reason] : REPLAY_OUTCOME_LABELS[r.outcome]}
        </Badge>
        <div className="mt-1 text-xs text-slate-600">{r.detail}</div>
      </div>
    ),
  },
];

/**
 * Replay a capture on a connection: a file from the machine's logger, or its text pasted, read with
 * the connection's profile and code map; each record shows the sample and test it would reach, or
 * why it would wait in Unmatched Results. Nothing is stored.
 */
export function ReplayDialog({ connection, onClose }: { connection: Connection | null; onClose: () => void }) {
  // Keyed by the connection where it is used: each opening starts empty.
  const [capture, setCapture] = useState('');
  const replay = useReplayCapture();
  const errors = replay.error ? fieldErrors(replay.error) : {};
  const r = replay.data;
  const counts = r
    ? (['entered', 'unmatched', 'ignored', 'skipped'] as const).map(
        (o) => `${formatCount(r.rows.filter((x) => x.outcome === o).length)} ${REPLAY_OUTCOME_LABELS[o].toLowerCase()}`,
      )
    : [];
  const profile = connection ? INSTRUMENT_PRESETS[connection.profile] : null;
  return (
    <FormDialog
      open={connection !== null}
      onOpenChange={(o) => !o && onClose()}
      size="xl"
      title={`Replay a Capture: ${connection?.name ?? ''}`}
      description={`What each record would become with this connection's profile (${profile?.label ?? ''}${connection?.profile_settings ? ', adjusted' : ''}) and code map. Nothing is stored.`}
      busy={replay.isPending}
      busyLabel="Reading..."
      submitLabel="Show What It Would Become"
      onSubmit={() => connection && replay.mutate({ id: connection.id, capture })}
      error={errors.form}
    >
      <div className="grid gap-3">
        <FormField label="Capture file" hint="A file from the machine's logger (ASTM frames or records, HL7 or MLLP).">
          <Input
            type="file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void file.text().then(setCapture);
            }}
          />
        </FormField>
        <FormField label="Or paste the messages" error={errors.capture}>
          <Textarea
            rows={5}
            value={capture}
            onChange={(e) => setCapture(e.target.value)}
            className="font-mono text-xs"
            placeholder={'H|\\^&|||XP-100...\nP|1\nO|1||^^113^A|...\nR|1|^^^^WBC^1|5.5|10*3/uL||N\nL|1|N'}
          />
        </FormField>
        {r && (
          <div className="grid gap-2">
            <p className="text-sm text-slate-700">
              {formatCount(r.messages)} message{r.messages === 1 ? '' : 's'} ({r.protocol.toUpperCase()}):{' '}
              {counts.join(', ')}.
            </p>
            {r.notes.map((n) => (
              <p key={n} className="text-sm text-amber-800">
                {n}
              </p>
            ))}
            <DataTable
              caption="What the capture would become"
              columns={columns}
              rows={r.rows}
              getRowId={(x) => r.rows.indexOf(x)}
              empty={{ title: 'No results in the capture', hint: 'The messages carry no result records.' }}
            />
          </div>
        )}
      </div>
    </FormDialog>
  );
}
