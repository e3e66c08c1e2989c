import { useState } from 'react';
import { useNavigate } from 'react-router';
import { TestTubes, UserPlus } from 'lucide-react';
import type { z } from 'zod';
import type { portalPatientSchema } from '@shared/schemas/centre-portal';
import {
  Button,
  Card,
  DataTable,
  NameCell,
  ScreenHeader,
  SearchInput,
  queryState,
  type Column,
  type RowAction,
} from '@/components';
import { formatDate, useLabFormat } from '@/lib/format';
import { useDebounce } from '@/lib/useDebounce';
import { usePortalPatients } from '../api';
import { RegisterPatientDialog } from '../components/RegisterPatientDialog';

type PortalPatient = z.infer<typeof portalPatientSchema>;

/** The centre's own patients (those it registered, or the lab registered against it), and Register. */
export default function PortalPatientsPage() {
  const fmt = useLabFormat();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const patients = usePortalPatients(useDebounce(search.trim()));
  const columns: Column<PortalPatient>[] = [
    {
      key: 'name',
      header: 'Patient',
      cell: (p) => <NameCell name={p.name} detail={<span className="font-mono">{p.patient_code}</span>} />,
    },
    { key: 'gender', header: 'Gender', cell: (p) => p.gender ?? '', hideOnMobile: true },
    { key: 'phone', header: 'Phone', cell: (p) => p.phone ?? '', hideOnMobile: true },
    { key: 'registered', header: 'Registered', cell: (p) => formatDate(p.registered_at, fmt) },
  ];
  const actions: RowAction<PortalPatient>[] = [
    {
      label: (p) => `Order tests for ${p.name}`,
      icon: <TestTubes />,
      onClick: (p) => void navigate(`/centre-portal/order?patient=${p.id}`),
    },
  ];
  return (
    <>
      <ScreenHeader
        actions={
          <Button onClick={() => setAdding(true)}>
            <UserPlus />
            Register Patient
          </Button>
        }
      />
      <Card className="grid gap-3 p-3 sm:p-4">
        <SearchInput
          aria-label="Search your patients"
          placeholder="Search by name, code or phone"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          wrapperClassName="sm:max-w-sm"
        />
        <DataTable
          columns={columns}
          rows={patients.data}
          getRowId={(p) => p.id}
          caption="Your patients"
          {...queryState(patients)}
          errorTitle="Error Loading Patients"
          rowActions={actions}
          empty={{
            title: search ? 'No patient matches' : 'No patients yet',
            hint: search ? 'Try another name, code or phone.' : 'Register a patient to order their tests.',
          }}
        />
      </Card>
      <RegisterPatientDialog open={adding} onOpenChange={setAdding} />
    </>
  );
}
