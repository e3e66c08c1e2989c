import { profileIssues, type Connection } from '@shared/schemas/connections';
import {
  INSTRUMENT_PRESETS,
  profileSettingsSchema,
  resolveProfile,
  type IgnoreWhen,
  type ProfileSettings,
  type ResolvedProfile,
} from '@shared/schemas/instrument-profiles';
import type { FieldErrors } from '@/lib/forms';

/**
 * The connection form's instrument-profile adjustments, as the inputs hold them: only the settings
 * the lab changed, as typed (lists as text: "O-4, O-3"). A setting not here is the preset's, so a
 * change of preset moves every setting the lab did not touch.
 */
export interface IgnoreDraft {
  at: string;
  when: IgnoreWhen;
  value: string;
}
export interface ProfileDraft {
  specimen?: string;
  code?: string;
  code_components?: string;
  code_pick?: 'first' | 'join';
  value?: string;
  unit?: string;
  flag?: string;
  ignore?: IgnoreDraft[];
  split_text?: boolean;
}

export const LOCATION_KEYS = ['code', 'value', 'unit', 'flag'] as const;
type Protocol = 'astm' | 'hl7';

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** The stored settings as the inputs show them. */
export function draftOf(s: Connection['profile_settings'] | null | undefined): ProfileDraft {
  if (!s) return {};
  const d: ProfileDraft = {};
  if (s.specimen) d.specimen = s.specimen.join(', ');
  for (const k of LOCATION_KEYS) if (s[k] !== undefined) d[k] = s[k];
  if (s.code_components) d.code_components = s.code_components.join(', ');
  if (s.code_pick) d.code_pick = s.code_pick;
  if (s.ignore) d.ignore = s.ignore.map((r) => ({ at: r.at, when: r.when, value: r.value ?? '' }));
  if (s.split_text !== undefined) d.split_text = s.split_text;
  return d;
}

/** What the preset (over the protocol's defaults) says, without the lab's adjustments. */
export function presetProfile(protocol: Protocol, profile: Connection['profile']): ResolvedProfile {
  return resolveProfile(protocol, profile, null);
}

/** The inputs' text of each setting in force: the lab's where it changed one, else the preset's. */
export function shownOf(draft: ProfileDraft, preset: ResolvedProfile) {
  return {
    specimen: draft.specimen ?? preset.specimen.join(', '),
    code: draft.code ?? preset.code,
    code_components: draft.code_components ?? preset.code_components.join(', '),
    code_pick: draft.code_pick ?? preset.code_pick,
    value: draft.value ?? preset.value,
    unit: draft.unit ?? preset.unit,
    flag: draft.flag ?? preset.flag,
    ignore: draft.ignore ?? preset.ignore.map((r) => ({ at: r.at, when: r.when, value: r.value ?? '' })),
    split_text: draft.split_text ?? preset.split_text,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const loc = (v: string) => v.trim().toUpperCase();

/**
 * The body's `profile_settings`: each adjustment as the API takes it, leaving out those that say
 * what the preset says (null when none is left). Text that is not a number stays text in a number
 * list, so the schema names it rather than the form dropping it.
 */
export function settingsOf(draft: ProfileDraft, preset: ResolvedProfile): ProfileSettings | null {
  const out: Record<string, unknown> = {};
  if (draft.specimen !== undefined) {
    const v = list(draft.specimen).map(loc);
    if (!same(v, preset.specimen)) out.specimen = v;
  }
  for (const k of LOCATION_KEYS) {
    const v = draft[k];
    if (v !== undefined && loc(v) !== preset[k]) out[k] = v.trim();
  }
  if (draft.code_components !== undefined) {
    const v = list(draft.code_components).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
    if (!same(v, preset.code_components)) out.code_components = v;
  }
  if (draft.code_pick !== undefined && draft.code_pick !== preset.code_pick) out.code_pick = draft.code_pick;
  if (draft.ignore !== undefined) {
    const v = draft.ignore.map((r) => ({
      at: r.at.trim(),
      when: r.when,
      ...(r.when === 'equals' ? { value: r.value.trim() } : {}),
    }));
    const norm = (rs: { at: string; when: string; value?: string }[]) =>
      rs.map((r) => ({ at: loc(r.at), when: r.when, value: r.value ?? '' }));
    if (!same(norm(v), norm(preset.ignore))) out.ignore = v;
  }
  if (draft.split_text !== undefined && draft.split_text !== preset.split_text) out.split_text = draft.split_text;
  return Object.keys(out).length ? (out as ProfileSettings) : null;
}

/**
 * The messages the API would give for these settings, by the same paths (`profile_settings.code`,
 * `profile_settings.ignore.0.at`): the same schema and the same protocol check the server runs.
 */
export function draftErrors(
  protocol: Connection['protocol'],
  profile: Connection['profile'],
  settings: ProfileSettings | null,
): FieldErrors {
  const out: FieldErrors = {};
  if (!settings) return out;
  const parsed = profileSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    for (const i of parsed.error.issues) out[['profile_settings', ...i.path.map(String)].join('.')] ??= i.message;
    return out;
  }
  for (const i of profileIssues({ protocol, profile, profile_settings: parsed.data })) out[i.path] ??= i.message;
  return out;
}

/** The first message at `path` or under it (`profile_settings.specimen` takes `...specimen.2`). */
export function errorUnder(errors: FieldErrors, path: string): string | undefined {
  for (const [k, v] of Object.entries(errors)) if (v && (k === path || k.startsWith(`${path}.`))) return v;
  return undefined;
}

/** The protocol whose locations the form shows: a folder takes either; its preset's, else ASTM. */
export function viewProtocol(protocol: Connection['protocol'], profile: Connection['profile']): Protocol {
  if (protocol === 'astm' || protocol === 'hl7') return protocol;
  return INSTRUMENT_PRESETS[profile].protocol ?? 'astm';
}
