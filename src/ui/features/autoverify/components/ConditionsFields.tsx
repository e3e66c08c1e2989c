import { Checkbox, FormField, Input, Select } from '@/components';
import { conditionPath, type ConditionsForm } from '../ruleForm';

export interface ConditionsFieldsProps {
  value: ConditionsForm;
  onChange: (next: ConditionsForm) => void;
  /** The API path of these conditions ("document.defaults"), for the messages by field. */
  path: string;
  errors: Record<string, string | undefined>;
  /** "mg/dL" when the conditions are one test's; otherwise limits are in each test's own unit. */
  unit?: string | null;
  /** Distinguishes the inputs of several blocks for assistive technology ("Glucose"). */
  label?: string;
}

const RANGE_OPTIONS = [
  { value: 'reference', label: "Inside the patient's reference range" },
  { value: 'auto_release', label: 'Inside the auto-release range set here' },
  { value: 'off', label: 'Not checked' },
];

/**
 * Every condition the engine supports, each a checkbox or a number with its unit and what it
 * means, for the defaults, a department or a test.
 */
export function ConditionsFields({ value: v, onChange, path, errors, unit, label }: ConditionsFieldsProps) {
  const set = <K extends keyof ConditionsForm>(key: K, val: ConditionsForm[K]) => onChange({ ...v, [key]: val });
  const err = (k: keyof ConditionsForm) => errors[conditionPath(path, k)];
  const inUnit = unit ? `in ${unit}` : "in the test's unit";
  const of = label ? ` (${label})` : '';
  const num = (k: 'reportable_low' | 'reportable_high' | 'auto_low' | 'auto_high', name: string) => (
    <FormField label={`${name}${of}`} error={err(k)} className="w-full sm:w-40">
      <Input type="text" inputMode="decimal" value={v[k]} onChange={(e) => set(k, e.target.value)} placeholder="—" />
    </FormField>
  );
  return (
    <div className="grid gap-4">
      <Checkbox
        label={`Numeric results only${of}`}
        hint={'Text, "<5" or ">600" waits for a person.'}
        checked={v.numeric_only}
        onChange={(e) => set('numeric_only', e.target.checked)}
      />
      <div className="grid gap-2">
        <Checkbox
          label={`Inside the reportable (measuring) range${of}`}
          hint={`Limits ${inUnit}; empty: the test's plausible range.`}
          checked={v.reportable}
          onChange={(e) => set('reportable', e.target.checked)}
        />
        {v.reportable && (
          <div className="flex flex-wrap gap-3 pl-6">
            {num('reportable_low', 'Reportable low')}
            {num('reportable_high', 'Reportable high')}
          </div>
        )}
      </div>
      <div className="grid gap-2">
        <FormField label={`Value range${of}`} error={err('range')} className="sm:max-w-md">
          <Select
            options={RANGE_OPTIONS}
            value={v.range}
            onChange={(e) => set('range', e.target.value as ConditionsForm['range'])}
          />
        </FormField>
        <p className="text-[13px] text-slate-600">
          {v.range === 'reference'
            ? 'The reference range for the patient’s sex and age; a test without one waits for a person.'
            : v.range === 'auto_release'
              ? `A wider range the lab trusts, ${inUnit}; it replaces the reference range for release.`
              : 'The value is not compared with any range (the other conditions still apply).'}
        </p>
        {v.range === 'auto_release' && (
          <div className="flex flex-wrap gap-3 pl-6">
            {num('auto_low', 'Auto-release low')}
            {num('auto_high', 'Auto-release high')}
          </div>
        )}
      </div>
      <Checkbox
        label={`No critical value${of}`}
        hint="A value at or beyond the test's critical limits waits for a person (and the call log)."
        checked={v.no_critical}
        onChange={(e) => set('no_critical', e.target.checked)}
      />
      <div className="grid gap-2">
        <Checkbox
          label={`Own delta limit${of}`}
          hint="Change against the patient's last verified value; no previous value passes. Unticked: the test's own delta rule."
          checked={v.delta_on}
          onChange={(e) => set('delta_on', e.target.checked)}
        />
        {v.delta_on && (
          <div className="flex flex-wrap gap-3 pl-6">
            <FormField label={`Delta as${of}`} className="w-full sm:w-48">
              <Select
                options={[
                  { value: 'percent', label: 'Percent change (%)' },
                  { value: 'absolute', label: `Absolute change (${unit ?? 'test unit'})` },
                ]}
                value={v.delta_kind}
                onChange={(e) => set('delta_kind', e.target.value as ConditionsForm['delta_kind'])}
              />
            </FormField>
            <FormField
              label={`Delta limit${of}`}
              error={err('delta_limit')}
              hint={v.delta_kind === 'percent' ? '%' : (unit ?? "test's unit")}
              className="w-full sm:w-40"
            >
              <Input
                type="text"
                inputMode="decimal"
                value={v.delta_limit}
                onChange={(e) => set('delta_limit', e.target.value)}
              />
            </FormField>
          </div>
        )}
      </div>
      <div className="grid gap-2">
        <Checkbox
          label={`QC passed on that machine${of}`}
          hint="Every control level of the test ran within the hours below before the result, and was not rejected. A test without control material waits."
          checked={v.qc_on}
          onChange={(e) => set('qc_on', e.target.checked)}
        />
        {v.qc_on && (
          <FormField
            label={`QC run within${of}`}
            error={err('qc_hours')}
            hint="hours (1-720)"
            className="w-full pl-6 sm:w-48"
          >
            <Input
              type="text"
              inputMode="numeric"
              value={v.qc_hours}
              onChange={(e) => set('qc_hours', e.target.value)}
            />
          </FormField>
        )}
      </div>
      <Checkbox
        label={`No instrument flag or error code${of}`}
        hint={'Anything the analyzer sent but empty or "N" holds (H and L too).'}
        checked={v.no_instrument_flag}
        onChange={(e) => set('no_instrument_flag', e.target.checked)}
      />
      <Checkbox
        label={`Sample not haemolysed, lipaemic or icteric${of}`}
        hint="As recorded at sample receipt."
        checked={v.no_interference}
        onChange={(e) => set('no_interference', e.target.checked)}
      />
      <Checkbox
        label={`Calculated values only from released inputs${of}`}
        hint="A calculated test waits until every value it is worked out from is released."
        checked={v.calculated_from_released}
        onChange={(e) => set('calculated_from_released', e.target.checked)}
      />
    </div>
  );
}
