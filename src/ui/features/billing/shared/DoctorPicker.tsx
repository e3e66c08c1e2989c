import { useMemo, useState } from 'react';
import { Stethoscope, UserRound } from 'lucide-react';
import { ROLE_LABELS } from '@shared/roles';
import { Button, Money } from '@/components';
import { errorMessage } from '@/lib/api';
import { useDoctors, type Doctor } from '@/lib/bills';
import { SearchPicker } from '@/components/SearchPicker';
import { ChosenCard } from './ChosenCard';
import { doctorTitledName, titledName } from '@shared/person-name';

export function doctorName(d: Pick<Doctor, 'first_name' | 'last_name' | 'role' | 'title'>): string {
  return d.role === 'doctor' ? doctorTitledName(d) : titledName(d);
}

/** "Cardiology · Doctor" (the role tells a lab technician from a doctor). */
function describe(d: Doctor): string {
  return [d.specialization, ROLE_LABELS[d.role]].filter(Boolean).join(' · ');
}

export interface DoctorPickerProps {
  value: Doctor | null;
  onChange: (doctor: Doctor | null) => void;
  error?: string;
  required?: boolean;
  /** "Doctor" unless said ("Referring Doctor" on a lab-only visit). */
  label?: string;
  /** OP Bill: "Self" (no referring doctor) may be chosen instead of a doctor. */
  self?: { chosen: boolean; onChoose: (self: boolean) => void };
}

/**
 * Spec 2.8 / 6: only doctors and lab technicians are offered (GET /api/doctors/options), each with their
 * specialization and consultation fee, searchable by name or specialization.
 */
export function DoctorPicker({ value, onChange, error, required, label = 'Doctor', self }: DoctorPickerProps) {
  const [query, setQuery] = useState('');
  const doctors = useDoctors();
  const options = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (doctors.data ?? []).filter(
      (d) =>
        !q ||
        `${d.first_name} ${d.last_name}`.toLowerCase().includes(q) ||
        (d.specialization ?? '').toLowerCase().includes(q),
    );
  }, [doctors.data, query]);

  if (self?.chosen) {
    return (
      <ChosenCard icon={UserRound} changeLabel="Change doctor" onChange={() => self.onChoose(false)}>
        <p className="font-semibold text-slate-900" data-testid="selected-doctor">
          Self
        </p>
        <p className="text-slate-600">No referring doctor: a lab-only visit, no consultation fee</p>
      </ChosenCard>
    );
  }

  if (value) {
    return (
      <ChosenCard icon={Stethoscope} changeLabel="Change doctor" onChange={() => onChange(null)}>
        <p className="font-semibold text-slate-900" data-testid="selected-doctor">
          {doctorName(value)}
        </p>
        <p className="text-slate-600">{describe(value) || 'No specialization recorded'}</p>
        <p className="text-slate-600">
          Consultation fee{' '}
          <strong className="font-medium text-slate-900">
            <Money rupees={value.consultation_fee} />
          </strong>
        </p>
      </ChosenCard>
    );
  }

  const picker = (
    <SearchPicker
      label={label}
      required={required}
      placeholder="Search doctors by name or specialization..."
      query={query}
      onQueryChange={setQuery}
      options={options}
      getKey={(d) => d.id}
      openOnFocus
      loading={doctors.isPending}
      loadingText="Loading doctors..."
      loadError={doctors.isError ? `Could not load doctors: ${errorMessage(doctors.error)}` : undefined}
      emptyText={
        doctors.data?.length
          ? `No doctor matches "${query.trim()}"`
          : 'No doctors or lab technicians yet: add one in User Management (role Doctor or Lab Technician).'
      }
      error={error}
      onSelect={(d) => {
        onChange(d);
        setQuery('');
      }}
      renderOption={(d) => (
        <span className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-medium">{doctorName(d)}</span>
          <span className="text-[13px] text-slate-600">{describe(d)}</span>
          <span className="ml-auto text-[13px] text-slate-700">
            Fee <Money rupees={d.consultation_fee} />
          </span>
        </span>
      )}
    />
  );
  if (!self) return picker;
  return (
    <div className="grid gap-2">
      {picker}
      <div>
        <Button variant="outline" size="sm" onClick={() => self.onChoose(true)}>
          <UserRound />
          Self (no referring doctor)
        </Button>
      </div>
    </div>
  );
}
