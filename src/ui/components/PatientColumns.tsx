import type { Patient } from '@shared/schemas/patients';
import { membershipLabel } from '@/lib/patients/options';
import { Badge } from './Badge';
import { DateText } from './Money';
import type { Column } from './DataTable';

const fullName = (p: Patient) => `${p.first_name} ${p.last_name}`;

/** The columns the lists of patients (All Patients, Patient Search, Patient History) draw alike. */
export const patientColumns = {
  id: {
    key: 'patient_id',
    header: 'Patient ID',
    cell: (p) => <span className="font-mono text-[13px]">{p.patient_id}</span>,
    hideOnMobile: true,
  },
  /** The name, and on phones (where the ID, age and gender columns are hidden) those under it. */
  nameWithDetails: {
    key: 'name',
    header: 'Name',
    cell: (p) => (
      <div className="min-w-0">
        <div className="font-medium text-slate-900">{fullName(p)}</div>
        <div className="font-mono text-xs text-slate-500 md:hidden">
          {p.patient_id} · {p.age_text ?? '—'}
          {p.gender ? ` · ${p.gender}` : ''}
        </div>
      </div>
    ),
  },
  email: { key: 'email', header: 'Email', cell: (p) => p.email ?? '—', hideOnMobile: true, className: 'break-all' },
  membership: {
    key: 'membership',
    header: 'Membership',
    cell: (p) => (
      <Badge tone={p.membership_type === 'none' ? 'grey' : 'blue'}>{membershipLabel(p.membership_type)}</Badge>
    ),
    hideOnMobile: true,
  },
  registered: {
    key: 'created_at',
    header: 'Registered',
    cell: (p) => <DateText value={p.created_at} />,
    hideOnMobile: true,
  },
} satisfies Record<string, Column<Patient>>;
