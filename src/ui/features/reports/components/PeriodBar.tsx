import { REPORT_RANGES } from '@shared/reports';
import type { ReportPeriodQuery } from '@shared/schemas/reports';
import { FormField, Input, Select } from '@/components';

export interface PeriodState {
  range: string;
  from: string;
  to: string;
}

/** The period as the API takes it: from/to when the user chose dates, else the last N days. */
export function periodQuery(p: PeriodState): ReportPeriodQuery | null {
  if (p.range === 'custom') return p.from && p.to && p.from <= p.to ? { from: p.from, to: p.to } : null;
  return { range: Number(p.range) };
}

/** Date range: 7, 30 (default), 90 or 365 days, or from/to (spec section 9). */
export function PeriodBar({ value, onChange }: { value: PeriodState; onChange: (p: Partial<PeriodState>) => void }) {
  const custom = value.range === 'custom';
  const invalid = custom && value.from && value.to && value.from > value.to ? 'From is after To' : undefined;
  return (
    <>
      <FormField label="Date range" className="sm:w-44">
        <Select
          value={value.range}
          onChange={(e) => onChange({ range: e.target.value })}
          options={[
            ...REPORT_RANGES.map((d) => ({ value: String(d), label: `Last ${d} days` })),
            { value: 'custom', label: 'From / to' },
          ]}
        />
      </FormField>
      {custom && (
        <>
          <FormField label="From" className="sm:w-44" error={invalid}>
            <Input
              type="date"
              value={value.from}
              max={value.to || undefined}
              onChange={(e) => onChange({ from: e.target.value })}
            />
          </FormField>
          <FormField label="To" className="sm:w-44">
            <Input
              type="date"
              value={value.to}
              min={value.from || undefined}
              onChange={(e) => onChange({ to: e.target.value })}
            />
          </FormField>
        </>
      )}
    </>
  );
}
