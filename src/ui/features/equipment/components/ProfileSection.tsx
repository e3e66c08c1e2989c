import { useState } from 'react';
import { ChevronDown, ChevronUp, Plus, RotateCcw, X } from 'lucide-react';
import type { Connection } from '@shared/schemas/connections';
import { IGNORE_WHEN, INSTRUMENT_PRESETS, INSTRUMENT_PRESET_KEYS } from '@shared/schemas/instrument-profiles';
import { Button, Checkbox, FormField, Input, Select } from '@/components';
import type { FieldErrors } from '@/lib/forms';
import {
  draftErrors,
  errorUnder,
  presetProfile,
  settingsOf,
  shownOf,
  viewProtocol,
  type IgnoreDraft,
  type ProfileDraft,
} from './profileDraft';

const WHEN_LABELS = { empty: 'is empty', present: 'has anything', equals: 'equals' } as const;

/**
 * The connection form's instrument profile: the preset, and under a disclosure the locations it
 * reads (specimen ID, test code, value, unit, flag), its ignore rules and split_text, each of
 * which the lab may change for this connection. The inputs show what is in force; a changed one
 * says what the preset had. Checked on leaving an input with the API's own schema; the server's
 * 400s land on the same inputs by their paths.
 */
export function ProfileSection({
  protocol,
  profile,
  onProfile,
  draft,
  onDraft,
  errors,
  setErrors,
}: {
  protocol: Connection['protocol'];
  profile: Connection['profile'];
  onProfile: (p: Connection['profile']) => void;
  draft: ProfileDraft;
  onDraft: (d: ProfileDraft) => void;
  errors: FieldErrors;
  setErrors: (update: (e: FieldErrors) => FieldErrors) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const view = viewProtocol(protocol, profile);
  const preset = presetProfile(view, profile);
  const shown = shownOf(draft, preset);
  const changed = Object.keys(settingsOf(draft, preset) ?? {}).length;
  const ownErrors = errorUnder(errors, 'profile_settings');
  // A message inside is never hidden behind the closed disclosure.
  const open = expanded || ownErrors !== undefined;
  const err = (path: string) => errorUnder(errors, `profile_settings.${path}`);

  const check = (next: ProfileDraft = draft) =>
    setErrors((e) => {
      const rest = Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('profile_settings')));
      return { ...rest, ...draftErrors(protocol, profile, settingsOf(next, preset)) };
    });
  const set = <K extends keyof ProfileDraft>(k: K, v: ProfileDraft[K]) => onDraft({ ...draft, [k]: v });
  const setRules = (rules: IgnoreDraft[]) => set('ignore', rules);
  const setRule = (i: number, patch: Partial<IgnoreDraft>) =>
    setRules(shown.ignore.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const was = (text: string, now: string) => (text === now ? undefined : `Preset: ${text || '(none)'}`);

  const location = (k: 'code' | 'value' | 'unit' | 'flag', label: string, placeholder: string) => (
    <FormField label={label} error={err(k)} hint={was(preset[k], shown[k].trim().toUpperCase())}>
      <Input
        value={shown[k]}
        placeholder={placeholder}
        autoCapitalize="characters"
        onChange={(e) => set(k, e.target.value)}
        onBlur={() => check()}
      />
    </FormField>
  );

  return (
    <div className="grid gap-2 sm:col-span-2">
      <FormField label="Instrument profile" error={errors.profile} hint={INSTRUMENT_PRESETS[profile].instruments}>
        <Select
          value={profile}
          onChange={(e) => onProfile(e.target.value as Connection['profile'])}
          options={INSTRUMENT_PRESET_KEYS.filter((k) => {
            const p: string | null = INSTRUMENT_PRESETS[k].protocol;
            return !p || protocol === 'folder' || p === protocol || k === profile;
          }).map((k) => ({ value: k, label: INSTRUMENT_PRESETS[k].label }))}
        />
      </FormField>
      <div>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          aria-expanded={open}
          aria-controls="profile-fields"
          onClick={() => setExpanded(!open)}
        >
          {open ? <ChevronUp /> : <ChevronDown />}
          Advanced: fields of this instrument
          {changed > 0 && <span className="text-xs text-amber-800">({changed} changed)</span>}
        </Button>
      </div>
      {open && (
        <fieldset id="profile-fields" className="grid gap-3 rounded-md border border-slate-200 p-3">
          <legend className="sr-only">Fields of this instrument</legend>
          <p className="text-xs text-slate-600">
            Where this machine puts each thing, as {view.toUpperCase()}{' '}
            {view === 'astm' ? 'record-field (O-3, R-4)' : 'segment-field (OBR-3, OBX-5)'}, a component after a dot
            (OBX-5.2). Without a component the field&apos;s first non-empty one is read.
            {protocol === 'folder' && ' A folder takes ASTM and HL7 files: these are the locations of its preset.'}
          </p>
          {errors.profile_settings && <p className="text-sm text-red-700">{errors.profile_settings}</p>}
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <FormField
              label="Specimen ID"
              className="col-span-2 sm:col-span-3"
              error={err('specimen')}
              hint={
                was(preset.specimen.join(', '), shown.specimen.trim().toUpperCase()) ??
                "Tried in order: the first that holds an ID is the sample's barcode or sample code."
              }
            >
              <Input
                value={shown.specimen}
                placeholder="O-3, O-4"
                autoCapitalize="characters"
                onChange={(e) => set('specimen', e.target.value)}
                onBlur={() => check()}
              />
            </FormField>
            {location('code', 'Test code field', view === 'astm' ? 'R-3' : 'OBX-3')}
            <FormField
              label="Code components"
              error={err('code_components')}
              hint={
                was(preset.code_components.join(', '), shown.code_components.trim()) ??
                (shown.code_components.trim() ? undefined : 'Empty: the usual rule')
              }
            >
              <Input
                value={shown.code_components}
                inputMode="numeric"
                placeholder="e.g. 1, 2"
                onChange={(e) => set('code_components', e.target.value)}
                onBlur={() => check()}
              />
            </FormField>
            <FormField label="Code from them" error={err('code_pick')} hint={was(preset.code_pick, shown.code_pick)}>
              <Select
                value={shown.code_pick}
                onChange={(e) => set('code_pick', e.target.value as 'first' | 'join')}
                options={[
                  { value: 'first', label: 'First non-empty' },
                  { value: 'join', label: 'All joined by ^' },
                ]}
              />
            </FormField>
            {location('value', 'Value', view === 'astm' ? 'R-4' : 'OBX-5')}
            {location('unit', 'Unit', view === 'astm' ? 'R-5' : 'OBX-6')}
            {location('flag', 'Flag', view === 'astm' ? 'R-7' : 'OBX-8')}
          </div>
          <div className="grid gap-2">
            <p className="text-sm font-medium text-slate-900">Ignore rules</p>
            <p className="text-xs text-slate-600">
              A result whose location matches a rule is not a result (probe rows, mode rows, raw signals): kept in the
              message log, counted as ignored.
              {draft.ignore !== undefined &&
                ` Preset: ${preset.ignore.length ? preset.ignore.map((r) => `${r.at} ${WHEN_LABELS[r.when]}${r.value ? ` ${r.value}` : ''}`).join('; ') : 'none'}.`}
            </p>
            {err('ignore') && !shown.ignore.some((_, i) => err(`ignore.${i}`)) && (
              <p className="text-sm text-red-700">{err('ignore')}</p>
            )}
            {shown.ignore.length === 0 && <p className="text-sm text-slate-600">No rules: every result is read.</p>}
            {shown.ignore.map((r, i) => (
              <div
                key={i}
                className="grid grid-cols-[1fr_1fr_auto] items-start gap-2 sm:grid-cols-[8rem_10rem_1fr_auto]"
              >
                <FormField label={`Rule ${i + 1}: location`} error={err(`ignore.${i}.at`)}>
                  <Input
                    value={r.at}
                    placeholder="OBX-2"
                    autoCapitalize="characters"
                    onChange={(e) => setRule(i, { at: e.target.value })}
                    onBlur={() => check()}
                  />
                </FormField>
                <FormField label="When it" error={err(`ignore.${i}.when`)}>
                  <Select
                    value={r.when}
                    onChange={(e) => setRule(i, { when: e.target.value as IgnoreDraft['when'] })}
                    options={IGNORE_WHEN.map((w) => ({ value: w, label: WHEN_LABELS[w] }))}
                  />
                </FormField>
                <div className="col-span-2 row-start-2 sm:col-span-1 sm:row-start-auto">
                  {r.when === 'equals' && (
                    <FormField label={`Rule ${i + 1}: value`} error={err(`ignore.${i}.value`)}>
                      <Input
                        value={r.value}
                        onChange={(e) => setRule(i, { value: e.target.value })}
                        onBlur={() => check()}
                      />
                    </FormField>
                  )}
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="col-start-3 row-start-1 mt-6 sm:col-start-auto sm:row-start-auto"
                  aria-label={`Remove ignore rule ${i + 1}`}
                  onClick={() => {
                    const next = { ...draft, ignore: shown.ignore.filter((_, j) => j !== i) };
                    onDraft(next);
                    check(next);
                  }}
                >
                  <X />
                </Button>
              </div>
            ))}
            <div>
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={shown.ignore.length >= 10}
                onClick={() => setRules([...shown.ignore, { at: '', when: 'empty', value: '' }])}
              >
                <Plus />
                Add Ignore Rule
              </Button>
            </div>
          </div>
          {view === 'hl7' && (
            <Checkbox
              label="Several results in one OBX as text (names in the code field, values in OBX-5, split at two or more spaces)"
              hint={
                draft.split_text !== undefined && draft.split_text !== preset.split_text
                  ? `Preset: ${preset.split_text ? 'on' : 'off'}`
                  : undefined
              }
              checked={shown.split_text}
              onChange={(e) => set('split_text', e.target.checked)}
            />
          )}
          <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-3">
            <p className="text-xs text-slate-600">
              {changed
                ? `${changed} setting${changed === 1 ? '' : 's'} changed from ${INSTRUMENT_PRESETS[profile].label}.`
                : `As the preset ${INSTRUMENT_PRESETS[profile].label}.`}{' '}
              Try a capture with Replay once saved.
            </p>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={Object.keys(draft).length === 0}
              onClick={() => {
                onDraft({});
                setErrors((e) =>
                  Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('profile_settings'))),
                );
              }}
            >
              <RotateCcw />
              Reset to Preset
            </Button>
          </div>
        </fieldset>
      )}
    </div>
  );
}
