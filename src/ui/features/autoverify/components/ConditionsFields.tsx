import { Checkbox, FormField, Input, Select } from '@/components';
import { conditionPath, type ConditionsForm } from '../ruleForm';
import { bindText } from '@/lib/bindText';

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

/** The conditions that are a tick box. */
type BoolKey = { [K in keyof ConditionsForm]: ConditionsForm[K] extends boolean ? K : never }[keyof ConditionsForm];

/**
 * Every condition the engine supports, each a checkbox or a number with its unit and what it
 * means, for the defaults, a department or a test.
 */
export function ConditionsFields({ value: v, onChange, path, errors, unit, label }: ConditionsFieldsProps) {
  const set = <K extends keyof ConditionsForm>(key: K, val: ConditionsForm[K]) => onChange({ ...v, [key]: val });
  const text = bindText(v, set);
  const err = (k: keyof ConditionsForm) => errors[conditionPath(path, k)];
  const inUnit = unit ? `in ${unit}` : "in the test's unit";
  const of = label ? ` (${label})` : '';
  const num = (k: 'reportable_low' | 'reportable_high' | 'auto_low' | 'auto_high', name: string) => (
    <FormField label={`${name}${of}`} error={err(k)} className="w-full sm:w-40">
      <Input type="text" inputMode="decimal" {...text(k)} placeholder="—" />
    </FormField>
  );
  const check = (k: BoolKey, name: string, hint: string) => (
    <Checkbox label={`${name}${of}`} hint={hint} checked={v[k]} onChange={(e) => set(k, e.target.checked)} />
  );
  return (
    <div className="grid gap-4">
      {check('numeric_only', 'Numeric results only', 'Text, "<5" or ">600" waits for a person.')}
      <div className="grid gap-2">
        {check(
          'reportable',
          'Inside the reportable (measuring) range',
          `Limits ${inUnit}; empty: the test's plausible range.`,
        )}
        {v.reportable && (
          <div className="flex flex-wrap gap-3 pl-6">
            {num('reportable_low', 'Reportable low')}
            {num('reportable_high', 'Reportable high')}
          </div>
        )}
      </div>
      <div className="grid gap-2">
        <FormField label={`Value range${of}`} error={err('range')} className="sm:max-w-md">
          <Select options={RANGE_OPTIONS} {...text('range')} />
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
      {check(
        'no_critical',
        'No critical value',
        "A value at or beyond the test's critical limits waits for a person (and the call log).",
      )}
      <div className="grid gap-2">
        {check(
          'delta_on',
          'Own delta limit',
          "Change against the patient's last verified value; no previous value passes. Unticked: the test's own delta rule.",
        )}
        {v.delta_on && (
          <div className="flex flex-wrap gap-3 pl-6">
            <FormField label={`Delta as${of}`} className="w-full sm:w-48">
              <Select
                options={[
                  { value: 'percent', label: 'Percent change (%)' },
                  { value: 'absolute', label: `Absolute change (${unit ?? 'test unit'})` },
                ]}
                {...text('delta_kind')}
              />
            </FormField>
            <FormField
              label={`Delta limit${of}`}
              error={err('delta_limit')}
              hint={v.delta_kind === 'percent' ? '%' : (unit ?? "test's unit")}
              className="w-full sm:w-40"
            >
              <Input type="text" inputMode="decimal" {...text('delta_limit')} />
            </FormField>
          </div>
        )}
      </div>
      <div className="grid gap-2">
        {check(
          'qc_on',
          'QC passed on that machine',
          'Every control level of the test ran within the hours below before the result, and was not rejected. A test without control material waits.',
        )}
        {v.qc_on && (
          <FormField
            label={`QC run within${of}`}
            error={err('qc_hours')}
            hint="hours (1-720)"
            className="w-full pl-6 sm:w-48"
          >
            <Input type="text" inputMode="numeric" {...text('qc_hours')} />
          </FormField>
        )}
      </div>
      {check(
        'no_instrument_flag',
        'No instrument flag or error code',
        'Anything the analyzer sent but empty or "N" holds (H and L too).',
      )}
      {check('no_interference', 'Sample not haemolysed, lipaemic or icteric', 'As recorded at sample receipt.')}
      {check(
        'calculated_from_released',
        'Calculated values only from released inputs',
        'A calculated test waits until every value it is worked out from is released.',
      )}
    </div>
  );
}
