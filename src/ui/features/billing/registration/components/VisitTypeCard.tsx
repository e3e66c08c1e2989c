import { Card, CardBody, CardHeader } from '@/components';
import { cn } from '@/lib/cn';

export type VisitType = 'doctor_visit' | 'lab_only';

const OPTIONS: { value: VisitType; label: string; hint: string }[] = [
  {
    value: 'lab_only',
    label: 'Lab Tests Only',
    hint: 'No consultation fee; a referring doctor may be named for the report',
  },
  {
    value: 'doctor_visit',
    label: 'Doctor Visit + Lab Tests',
    hint: 'Consultation with a doctor; the consultation fee is added to the bill',
  },
];

/**
 * Spec 2.11 Visit Type. The spec's include-doctor-visit box (on by default) and the two visit types
 * are one choice, so they are one radio group here. Lab tests only is the default: most visitors of a
 * lab are walk-ins with a doctor's slip, and a consultation is the exception (docs/decisions.md).
 */
export function VisitTypeCard({ value, onChange }: { value: VisitType; onChange: (v: VisitType) => void }) {
  return (
    <Card>
      <CardHeader title="Visit Type" />
      <CardBody>
        <fieldset className="grid gap-2">
          <legend className="sr-only">Visit Type</legend>
          {OPTIONS.map((o) => (
            <label
              key={o.value}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm',
                value === o.value ? 'border-primary-500 bg-primary-50' : 'border-slate-200 hover:bg-slate-50',
              )}
            >
              <input
                type="radio"
                name="visit_type"
                value={o.value}
                checked={value === o.value}
                onChange={() => onChange(o.value)}
                aria-labelledby={`visit-${o.value}-label`}
                aria-describedby={`visit-${o.value}-hint`}
                className="mt-0.5 size-4 accent-primary-600"
              />
              <span className="grid gap-0.5">
                <span id={`visit-${o.value}-label`} className="font-medium text-slate-900">
                  {o.label}
                </span>
                <span id={`visit-${o.value}-hint`} className="text-[13px] text-slate-600">
                  {o.hint}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      </CardBody>
    </Card>
  );
}
