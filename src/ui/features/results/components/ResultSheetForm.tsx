import { useState, type FormEvent } from 'react';
import { computeFlag, numericValue } from '@shared/flags';
import { resultCreateSchema, type ResultSheet, type ResultSheetRow, type TestResult } from '@shared/schemas/results';
import { Badge, FormField, Input, Select } from '@/components';
import { formatDateTime, useLabFormat } from '@/lib/format';
import { checkStructured, templateById } from '@shared/templates';
import { FlagBadge, PriorityBadge } from './cells';
import { calcState, type CalcState } from './calculation';
import { RowQcNotice } from './QcHoldNotice';
import type { PanelDraft } from './StructuredPanel';
import { cultureDraftOf, culturePayload, type CultureDraft } from './StructuredCulture';
import { StructuredRow } from './StructuredRow';
import { RowNotes, RowStatus, RowTitle } from './RowParts';

export interface RowDraft {
  value: string;
  unit: string;
  notes: string;
  /** A structured test's parameters (panel templates) or culture findings, as typed. */
  panel?: PanelDraft;
  culture?: CultureDraft;
}

export interface SaveJob {
  row: ResultSheetRow;
  draft: { result_value?: string; structured?: Record<string, unknown>; unit: string | null; notes: string | null };
}

/** Which rows a technician may type into: no result yet, an unverified one, or one a validator sent back. */
export function editable(row: ResultSheetRow): boolean {
  return (
    row.result === null ||
    row.result.status === 'completed' ||
    row.result.status === 'rejected' ||
    row.result.status === 'pending'
  );
}

function initialDraft(row: ResultSheetRow): RowDraft {
  const r = row.result;
  // A rejected value is re-entered from scratch (the old value is shown beside the field).
  const keep = r && r.status !== 'rejected';
  const template = row.result_type === 'structured' ? templateById(row.result_template) : null;
  return {
    value: keep ? (r.result_value ?? '') : '',
    unit: (keep ? r.unit : row.unit) ?? '',
    notes: (keep ? r.notes : '') ?? '',
    ...(template?.kind === 'panel' ? { panel: { ...((keep && r.structured?.values) || {}) } } : {}),
    ...(template?.kind === 'culture'
      ? { culture: cultureDraftOf(keep ? (r.structured?.culture ?? null) : null, template.defaultSpecimen) }
      : {}),
  };
}

/** A structured row's job: nothing when untouched, the error the server would give, or the parameters to send. */
function structuredJob(row: ResultSheetRow, d: RowDraft): SaveJob | string | null {
  const template = templateById(row.result_template);
  if (!template) return `${row.test_name} has no known result template; set it in the catalogue`;
  const start = initialDraft(row);
  const payload = d.culture ? culturePayload(d.culture) : (d.panel ?? {});
  const startPayload = start.culture ? culturePayload(start.culture) : (start.panel ?? {});
  const blank = d.culture ? !d.culture.growth : !Object.values(d.panel ?? {}).some((v) => v.trim());
  const r = row.result;
  if (!r && blank) return null;
  if (r && JSON.stringify(payload) === JSON.stringify(startPayload) && d.notes === start.notes) return null;
  const c = checkStructured(template, payload);
  if (!c.ok) return c.message;
  return { row, draft: { structured: payload, unit: null, notes: d.notes.trim() || null } };
}

/** The rows to save: new values, and changes to unverified ones. Empty new rows are skipped. */
export function jobsOf(
  sheet: ResultSheet,
  drafts: Record<number, RowDraft>,
): { jobs: SaveJob[]; errors: Record<number, string> } {
  const jobs: SaveJob[] = [];
  const errors: Record<number, string> = {};
  const valueOf = (row: ResultSheetRow) => (drafts[row.test_id] ?? initialDraft(row)).value;
  for (const row of sheet.tests) {
    const d = drafts[row.test_id];
    if (!d || !editable(row)) continue;
    if (row.result_type === 'structured') {
      const job = structuredJob(row, d);
      if (typeof job === 'string') errors[row.test_id] = job;
      else if (job) jobs.push(job);
      continue;
    }
    // A calculated test is typed only where the lab measures it directly; the server works out the rest.
    const calc = calcState(row, sheet, valueOf);
    if (calc && calc.kind !== 'measured') continue;
    const r = row.result;
    const start = initialDraft(row);
    if (!r && !d.value.trim()) continue;
    if (r && r.status !== 'rejected' && d.value === start.value && d.unit === start.unit && d.notes === start.notes)
      continue;
    if (r?.status === 'rejected' && !d.value.trim()) continue;
    const parsed = resultCreateSchema.safeParse({
      sample_id: sheet.sample.id,
      test_id: row.test_id,
      result_value: d.value,
      unit: d.unit,
      notes: d.notes,
    });
    if (!parsed.success) {
      errors[row.test_id] = parsed.error.issues[0]?.message ?? 'Invalid value';
      continue;
    }
    jobs.push({
      row,
      draft: {
        result_value: parsed.data.result_value ?? '',
        unit: parsed.data.unit ?? null,
        notes: parsed.data.notes ?? null,
      },
    });
  }
  return { jobs, errors };
}

interface Props {
  sheet: ResultSheet;
  formId: string;
  errors: Record<number, string>;
  onSubmit: (drafts: Record<number, RowDraft>) => void;
}

/** Step two: one row per ordered test with value, unit (prefilled), the patient's reference range and notes. */
export function ResultSheetForm({ sheet, formId, errors, onSubmit }: Props) {
  const lab = useLabFormat();
  const [drafts, setDrafts] = useState<Record<number, RowDraft>>(() =>
    Object.fromEntries(sheet.tests.map((t) => [t.test_id, initialDraft(t)])),
  );
  const s = sheet.sample;
  // Typed values survive a refetch of the sheet (after a partial save); rows new to the sheet start fresh.
  const draftOf = (row: ResultSheetRow) => drafts[row.test_id] ?? initialDraft(row);
  const set = (row: ResultSheetRow, patch: Partial<RowDraft>) =>
    setDrafts((d) => ({ ...d, [row.test_id]: { ...(d[row.test_id] ?? initialDraft(row)), ...patch } }));

  function submit(e: FormEvent) {
    e.preventDefault();
    onSubmit(Object.fromEntries(sheet.tests.map((t) => [t.test_id, draftOf(t)])));
  }

  return (
    <form id={formId} onSubmit={submit} className="grid gap-4" noValidate>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-md bg-slate-50 p-3 text-[13px] sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-600">Patient</dt>
          <dd className="font-medium text-slate-900">
            {s.first_name} {s.last_name}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Patient ID · Age / Sex</dt>
          <dd className="text-slate-900">
            {s.patient_number} · {s.age_text ?? '—'} / {s.gender ?? '—'}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Sample</dt>
          <dd className="font-mono text-xs text-slate-900">
            {s.sample_number}
            {s.barcode && <span className="block text-slate-600">{s.barcode}</span>}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Status · Priority</dt>
          <dd className="flex flex-wrap gap-1">
            <Badge status={s.status} />
            <PriorityBadge priority={s.priority} />
          </dd>
        </div>
      </dl>

      {!sheet.can_enter && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-[13px] text-amber-950">
          {s.status === 'pending'
            ? `Sample ${s.sample_number} has not been collected yet; collect it before entering results.`
            : `Sample ${s.sample_number} is ${s.status}; results can no longer be entered here. Verified results are changed from the table (Edit, with a reason).`}
        </p>
      )}
      {sheet.tests.length === 0 && <p className="text-[13px] text-slate-600">No tests were ordered on this sample.</p>}

      <ol className="grid gap-3">
        {sheet.tests.map((row) => (
          <SheetRow
            key={row.test_id}
            row={row}
            calc={calcState(row, sheet, (t) => draftOf(t).value)}
            draft={draftOf(row)}
            disabled={!sheet.can_enter || !editable(row)}
            error={errors[row.test_id]}
            onChange={(patch) => set(row, patch)}
            verifiedLine={
              row.result?.status === 'verified'
                ? `Verified by ${row.result.verified_by_name ?? 'unknown'} on ${formatDateTime(row.result.verified_at, lab)}`
                : null
            }
          />
        ))}
      </ol>
    </form>
  );
}

/** The test's choices, plus a stored value no longer among them (so it is not lost from the field). */
function choiceOptions(row: ResultSheetRow, value: string) {
  const opts = row.choices.map((c) => ({ value: c, label: c }));
  return value && !row.choices.includes(value) ? [...opts, { value, label: value }] : opts;
}

/** What a row of the sheet is drawn from, whether a plain test's or a structured one's. */
export interface SheetRowProps {
  row: ResultSheetRow;
  draft: RowDraft;
  disabled: boolean;
  error: string | undefined;
  onChange: (patch: Partial<RowDraft>) => void;
  verifiedLine: string | null;
}

function SheetRow({ calc, ...props }: SheetRowProps & { calc: CalcState | null }) {
  const { row, draft, disabled, error, onChange, verifiedLine } = props;
  const r: TestResult | null = row.result;
  if (row.result_type === 'structured') return <StructuredRow {...props} />;
  // A calculated test is not typed over (it changes with its inputs) unless the lab measures it directly.
  const locked = calc !== null && calc.kind !== 'measured';
  const shown =
    calc?.kind === 'calculated' ? calc.value : locked ? (r?.calculated ? (r.result_value ?? '') : '') : draft.value;
  // A preview against the range shown; the server decides the stored flag (and critical limits).
  // A number typed for a numeric test only: text there is an error the server names, not a flag.
  const previewable =
    shown.trim() && !disabled && (row.result_type !== 'numeric' || numericValue(shown.replace(/^[<>]=?/, '')) !== null);
  const preview = previewable ? computeFlag(shown, row.normal_range) : null;
  return (
    <li className="rounded-md border border-slate-200 p-3">
      <RowTitle
        row={row}
        aside={
          <p className="text-[13px] text-slate-700">
            Reference range: <span className="font-medium">{row.normal_range ?? 'not set'}</span>
          </p>
        }
      />
      {r?.status === 'rejected' && (
        <p className="mb-2 text-[13px] text-red-800">
          Rejected ({r.rejection_reason ?? 'no reason given'}); earlier value {r.result_value} {r.unit}. Enter the
          repeat result.
        </p>
      )}
      <RowQcNotice row={row} open={!disabled} />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[1fr_8rem_1.5fr]">
        <FormField
          label={`${row.test_name} result`}
          error={error}
          hint={calc ? <CalcHint calc={calc} formula={row.formula!} /> : undefined}
        >
          {(control) => (
            <div className="flex items-center gap-2">
              {row.result_type === 'choice' && !disabled ? (
                <Select
                  {...control}
                  value={draft.value}
                  onChange={(e) => onChange({ value: e.target.value })}
                  placeholder="Choose a result"
                  options={choiceOptions(row, draft.value)}
                  className="min-w-0 flex-1"
                />
              ) : (
                <Input
                  {...control}
                  value={shown}
                  onChange={(e) => onChange({ value: e.target.value })}
                  disabled={disabled}
                  readOnly={locked}
                  className={locked ? 'bg-slate-50 text-slate-700' : undefined}
                  autoComplete="off"
                  inputMode={row.result_type === 'numeric' || calc ? 'decimal' : 'text'}
                  placeholder={calc?.kind === 'waiting' ? 'Calculated when its tests are entered' : undefined}
                />
              )}
              {/* Fixed width, so the inputs of all rows line up whatever the flag says. */}
              <span className="w-20 shrink-0">
                {preview ? <FlagBadge flag={preview} /> : r ? <FlagBadge flag={r.flag} /> : null}
              </span>
            </div>
          )}
        </FormField>
        <FormField label="Unit">
          <Input
            value={draft.unit}
            onChange={(e) => onChange({ unit: e.target.value })}
            disabled={disabled}
            autoComplete="off"
          />
        </FormField>
        <RowNotes
          value={draft.notes}
          disabled={disabled}
          onChange={(notes) => onChange({ notes })}
          className="col-span-2 sm:col-span-1"
        />
      </div>
      <RowStatus r={r} verifiedLine={verifiedLine}>
        {r?.is_critical && <Badge tone="red">Critical Value</Badge>}
        {r?.delta_failed && <Badge tone="amber">Delta check</Badge>}
        {r?.previous_value && <span>Previous: {r.previous_value}</span>}
      </RowStatus>
    </li>
  );
}

/** Why a calculated field cannot be typed, or why (and with what beside it) it is typed. */
function CalcHint({ calc, formula }: { calc: CalcState; formula: string }) {
  if (calc.kind === 'calculated') return <>Calculated from {formula}: not typed; it follows the tests it uses.</>;
  if (calc.kind === 'waiting')
    return (
      <>
        Calculated from {formula} ({calc.reason}): not typed.
      </>
    );
  return (
    <span className="text-amber-800">
      Measured directly: {calc.reason}
      {calc.formula ? `; the formula (${formula}) would give ${calc.formula}` : ''}.
    </span>
  );
}
