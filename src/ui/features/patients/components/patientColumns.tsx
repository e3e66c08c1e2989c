import type { Patient } from '@shared/schemas/patients';
import { Badge, DateText, type Column } from '@/components';
import { membershipLabel } from '@/lib/patients/options';

/** The columns All Patients and Patient Search draw alike (the spec gives both lists these). */
export const patientColumns = {
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
