import { Plus, Trash2 } from 'lucide-react';
import { COMMON_ANTIBIOTICS, COMMON_ORGANISMS, INTERPRETATION_WORDS, INTERPRETATIONS } from '@shared/templates';
import type { StructuredOut } from '@shared/schemas/results';
import { Button, FormField, Input, Select } from '@/components';

/** A culture as typed: every field text until it is sent (the server checks and converts). */
export interface CultureDraft {
  specimen: string;
  growth: string;
  incubation_hours: string;
  comment: string;
  organisms: { name: string; colony_count: string; antibiotics: AntibioticDraft[] }[];
}
interface AntibioticDraft {
  name: string;
  interpretation: string;
  mic: string;
  zone: string;
}

const text = (n: number | null | undefined) => (n == null ? '' : String(n));
const newAntibiotic = (): AntibioticDraft => ({ name: '', interpretation: '', mic: '', zone: '' });

export function cultureDraftOf(stored: StructuredOut['culture'], specimen: string): CultureDraft {
  if (!stored) return { specimen, growth: '', incubation_hours: '48', comment: '', organisms: [] };
  return {
    specimen: stored.specimen,
    growth: stored.growth,
    incubation_hours: text(stored.incubation_hours),
    comment: stored.comment ?? '',
    organisms: stored.organisms.map((o) => ({
      name: o.name,
      colony_count: text(o.colony_count),
      antibiotics: o.antibiotics.map((a) => ({
        name: a.name,
        interpretation: a.interpretation,
        mic: text(a.mic),
        zone: text(a.zone),
      })),
    })),
  };
}

/** What is sent: organisms only with a growth, antibiotic rows left blank dropped. */
export function culturePayload(d: CultureDraft) {
  return {
    specimen: d.specimen,
    growth: d.growth,
    incubation_hours: d.incubation_hours,
    comment: d.comment,
    organisms:
      d.growth === 'growth'
        ? d.organisms.map((o) => ({
            name: o.name,
            colony_count: o.colony_count,
            antibiotics: o.antibiotics.filter((a) => a.name.trim() || a.interpretation || a.mic || a.zone),
          }))
        : [],
  };
}

const GROWTH_OPTIONS = [
  { value: 'no_growth', label: 'No growth' },
  { value: 'growth', label: 'Growth: organism(s) isolated' },
  { value: 'mixed', label: 'Mixed growth (probable contamination)' },
];

interface Props {
  draft: CultureDraft;
  disabled: boolean;
  testName: string;
  onChange: (d: CultureDraft) => void;
}

/** Culture and sensitivity: specimen, growth, and per organism its colony count and antibiogram rows. */
export function StructuredCulture({ draft: d, disabled, testName, onChange }: Props) {
  const setOrg = (i: number, patch: Partial<CultureDraft['organisms'][number]>) =>
    onChange({ ...d, organisms: d.organisms.map((o, j) => (j === i ? { ...o, ...patch } : o)) });
  const setAb = (i: number, k: number, patch: Partial<AntibioticDraft>) =>
    setOrg(i, { antibiotics: d.organisms[i]!.antibiotics.map((a, j) => (j === k ? { ...a, ...patch } : a)) });
  const growth = d.growth === 'growth';
  return (
    <div className="grid gap-3">
      <datalist id="organism-names">
        {COMMON_ORGANISMS.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
      <datalist id="antibiotic-names">
        {COMMON_ANTIBIOTICS.map((o) => (
          <option key={o} value={o} />
        ))}
      </datalist>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <FormField label="Specimen">
          <Input
            value={d.specimen}
            onChange={(e) => onChange({ ...d, specimen: e.target.value })}
            disabled={disabled}
          />
        </FormField>
        <FormField label="Culture result">
          <Select
            value={d.growth}
            onChange={(e) => {
              const g = e.target.value;
              const organisms =
                g === 'growth' && !d.organisms.length
                  ? [{ name: '', colony_count: '', antibiotics: [newAntibiotic()] }]
                  : d.organisms;
              onChange({ ...d, growth: g, organisms });
            }}
            disabled={disabled}
            placeholder="Choose"
            options={GROWTH_OPTIONS}
          />
        </FormField>
        <FormField
          label="Incubation (hours)"
          hint={d.growth === 'no_growth' ? 'Printed as "No growth after … h"' : undefined}
        >
          <Input
            value={d.incubation_hours}
            onChange={(e) => onChange({ ...d, incubation_hours: e.target.value })}
            disabled={disabled}
            inputMode="numeric"
          />
        </FormField>
      </div>
      {growth &&
        d.organisms.map((o, i) => (
          <fieldset key={i} className="grid gap-2 rounded-md border border-slate-200 p-3">
            <legend className="px-1 text-[13px] font-semibold text-slate-800">Organism {i + 1}</legend>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
              <FormField label="Organism isolated">
                <Input
                  list="organism-names"
                  value={o.name}
                  onChange={(e) => setOrg(i, { name: e.target.value })}
                  disabled={disabled}
                  autoComplete="off"
                />
              </FormField>
              <FormField label="Colony count (CFU/mL)">
                <Input
                  value={o.colony_count}
                  onChange={(e) => setOrg(i, { colony_count: e.target.value })}
                  disabled={disabled}
                  inputMode="numeric"
                  placeholder="e.g. 100000"
                />
              </FormField>
              {!disabled && (
                <Button
                  variant="ghost"
                  onClick={() => onChange({ ...d, organisms: d.organisms.filter((_, j) => j !== i) })}
                  aria-label={`Remove organism ${i + 1}`}
                >
                  <Trash2 />
                  <span className="sm:sr-only">Remove organism</span>
                </Button>
              )}
            </div>
            <p className="text-[13px] font-medium text-slate-800">Antibiogram</p>
            <div className="hidden grid-cols-[minmax(0,1fr)_9.5rem_5.5rem_5.5rem_2.5rem] gap-2 text-xs text-slate-600 sm:grid">
              <span>Antibiotic</span>
              <span>S / I / R</span>
              <span>MIC (mg/L)</span>
              <span>Zone (mm)</span>
              <span />
            </div>
            {o.antibiotics.map((a, k) => (
              <div
                key={k}
                className="grid grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)_minmax(0,1fr)_2.5rem] gap-2 border-b border-slate-100 pb-2 sm:grid-cols-[minmax(0,1fr)_9.5rem_5.5rem_5.5rem_2.5rem] sm:border-0 sm:pb-0"
              >
                <Input
                  list="antibiotic-names"
                  aria-label={`${testName}: organism ${i + 1} antibiotic ${k + 1}`}
                  placeholder="Antibiotic"
                  value={a.name}
                  onChange={(e) => setAb(i, k, { name: e.target.value })}
                  disabled={disabled}
                  autoComplete="off"
                  className="col-span-4 sm:col-span-1"
                />
                <Select
                  aria-label={`Organism ${i + 1} antibiotic ${k + 1} interpretation`}
                  value={a.interpretation}
                  onChange={(e) => setAb(i, k, { interpretation: e.target.value })}
                  disabled={disabled}
                  placeholder="S/I/R"
                  options={INTERPRETATIONS.map((x) => ({ value: x, label: `${x} – ${INTERPRETATION_WORDS[x]}` }))}
                  className={a.interpretation === 'R' ? 'font-semibold text-red-800' : undefined}
                />
                <Input
                  aria-label={`Organism ${i + 1} antibiotic ${k + 1} MIC (mg/L)`}
                  placeholder="MIC"
                  value={a.mic}
                  onChange={(e) => setAb(i, k, { mic: e.target.value })}
                  disabled={disabled}
                  inputMode="decimal"
                />
                <Input
                  aria-label={`Organism ${i + 1} antibiotic ${k + 1} zone (mm)`}
                  placeholder="Zone"
                  value={a.zone}
                  onChange={(e) => setAb(i, k, { zone: e.target.value })}
                  disabled={disabled}
                  inputMode="numeric"
                />
                {!disabled ? (
                  <Button
                    variant="ghost"
                    size="icon"
                    onClick={() => setOrg(i, { antibiotics: o.antibiotics.filter((_, j) => j !== k) })}
                    aria-label={`Remove antibiotic ${k + 1} of organism ${i + 1}`}
                  >
                    <Trash2 />
                  </Button>
                ) : (
                  <span />
                )}
              </div>
            ))}
            {!disabled && (
              <Button
                variant="outline"
                size="sm"
                className="justify-self-start"
                onClick={() => setOrg(i, { antibiotics: [...o.antibiotics, newAntibiotic()] })}
              >
                <Plus />
                Add antibiotic
              </Button>
            )}
          </fieldset>
        ))}
      {growth && !disabled && d.organisms.length < 5 && (
        <Button
          variant="outline"
          size="sm"
          className="justify-self-start"
          onClick={() =>
            onChange({
              ...d,
              organisms: [...d.organisms, { name: '', colony_count: '', antibiotics: [newAntibiotic()] }],
            })
          }
        >
          <Plus />
          Add organism
        </Button>
      )}
      <FormField label="Comment (optional)">
        <Input value={d.comment} onChange={(e) => onChange({ ...d, comment: e.target.value })} disabled={disabled} />
      </FormField>
    </div>
  );
}
