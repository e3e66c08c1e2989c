import type { PanelTemplate, TemplateParam } from '@shared/templates';
import { paramsBySection, previewParam, referenceText } from '@shared/templates';
import { FormField, Input, Select } from '@/components';
import { FlagBadge } from './cells';

/** A panel's draft: each parameter's text as typed or chosen. */
export type PanelDraft = Record<string, string>;

interface Props {
  template: PanelTemplate;
  draft: PanelDraft;
  disabled: boolean;
  testName: string;
  onChange: (draft: PanelDraft) => void;
}

/**
 * A panel template entered parameter by parameter: one group per section, a select of the allowed
 * values or a number with its reference limits, each flagged as it is filled in (the same rules the
 * server applies: @shared/templates).
 */
export function StructuredPanel({ template, draft, disabled, testName, onChange }: Props) {
  return (
    <div className="grid gap-3">
      {paramsBySection(template).map((section) => (
        <fieldset key={section.key} className="rounded-md border border-slate-200 p-3">
          <legend className="px-1 text-[13px] font-semibold text-slate-800">{section.title}</legend>
          <div className="grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-3">
            {section.params.map((p) => (
              <ParamField
                key={p.key}
                param={p}
                value={draft[p.key] ?? ''}
                disabled={disabled}
                testName={testName}
                onChange={(v) => onChange({ ...draft, [p.key]: v })}
              />
            ))}
          </div>
        </fieldset>
      ))}
      {template.source && <p className="text-xs text-slate-600">{template.source}</p>}
    </div>
  );
}

function ParamField({
  param: p,
  value,
  disabled,
  testName,
  onChange,
}: {
  param: TemplateParam;
  value: string;
  disabled: boolean;
  testName: string;
  onChange: (v: string) => void;
}) {
  const preview = disabled ? null : previewParam(p, value);
  const error = preview && 'error' in preview ? preview.error : undefined;
  const flag = preview && 'flag' in preview ? preview.flag : null;
  const ref = referenceText(p);
  const unit = p.kind === 'text' ? '' : (p.unit ?? '');
  const hint = [unit, ref && `ref. ${ref}`].filter(Boolean).join(' · ') || undefined;
  return (
    <FormField
      label={
        <>
          {p.label}
          {p.optional && <span className="font-normal text-slate-500"> (optional)</span>}
        </>
      }
      error={error}
      hint={hint}
      className="min-w-0"
    >
      {(control) => (
        <div className="flex items-center gap-2">
          {p.kind === 'choice' ? (
            <Select
              {...control}
              aria-label={`${testName}: ${p.label}`}
              value={value}
              onChange={(e) => onChange(e.target.value)}
              disabled={disabled}
              placeholder="Choose"
              options={p.choices.map((c) => ({ value: c, label: c }))}
              className="min-w-0 flex-1"
            />
          ) : (
            <Input
              {...control}
              aria-label={`${testName}: ${p.label}`}
              value={value}
              onChange={(e) => onChange(e.target.value)}
              disabled={disabled}
              autoComplete="off"
              inputMode={p.kind === 'number' && !p.allowRange ? 'decimal' : 'text'}
              placeholder={p.kind === 'number' && p.allowRange ? 'e.g. 2-4' : undefined}
              className="min-w-0 flex-1"
            />
          )}
          <span className="w-16 shrink-0">{flag && flag !== 'normal' ? <FlagBadge flag={flag} /> : null}</span>
        </div>
      )}
    </FormField>
  );
}
