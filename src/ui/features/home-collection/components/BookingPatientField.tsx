import { X } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { Button, FormField, Input } from '@/components';
import { PatientSearchOrAdd } from '@/components/PatientSearchOrAdd';
import { NewPatientFields, type NewPatientForm } from '@/components/NewPatientFields';

export interface BookingPatientFieldProps {
  /** The registered patient chosen, as shown; null while searching or adding one. */
  chosen: string | null;
  onSelect: (p: Patient) => void;
  onClear: () => void;
  /** Registering a new patient with the booking (the fields below the search). */
  adding: boolean;
  onAddingChange: (adding: boolean) => void;
  newPatient: NewPatientForm;
  error?: string;
}

/**
 * Book Visit's patient: a registered one found by search, or a new one registered by the booking
 * itself with OP Bill's fields (nothing is saved until the visit is booked).
 */
export function BookingPatientField({
  chosen,
  onSelect,
  onClear,
  adding,
  onAddingChange,
  newPatient,
  error,
}: BookingPatientFieldProps) {
  if (chosen)
    return (
      <FormField label="Patient" required error={error}>
        <div className="flex items-center gap-2">
          <Input readOnly value={chosen} />
          <button type="button" className="text-sm text-blue-700 underline" onClick={onClear}>
            Change
          </button>
        </div>
      </FormField>
    );
  return (
    <PatientSearchOrAdd
      onSelect={onSelect}
      error={error}
      facts={(p) => p.phone ?? null}
      elsewhere="register the patient on Patients first"
      adding={adding}
      onAddingChange={onAddingChange}
      addForm={
        <section
          aria-label="New patient"
          className="grid gap-3 rounded-md border border-primary-200 bg-primary-50/40 p-3"
        >
          <div className="flex items-start justify-between gap-2">
            <div>
              <h3 className="text-sm font-semibold text-slate-900">New Patient</h3>
              <p className="text-[13px] text-slate-600">Registered when the visit is booked, not before.</p>
            </div>
            <Button size="sm" variant="ghost" onClick={() => onAddingChange(false)}>
              <X aria-hidden="true" />
              Not a New Patient
            </Button>
          </div>
          <NewPatientFields form={newPatient} />
        </section>
      }
    />
  );
}
