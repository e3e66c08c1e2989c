import { useState } from 'react';
import { Eye, Info, Search } from 'lucide-react';
import type { Patient } from '@shared/schemas/patients';
import { AGE_RANGES, PATIENT_SEARCH_TYPES } from '@shared/constants';
import {
  patientColumns,
  Card,
  CardHeader,
  DataTable,
  ListFilterBar,
  Pagination,
  ScreenHeader,
  type Column,
  type RowAction,
} from '@/components';
import { usePagedList, type ListFilter } from '@/lib/usePagedList';
import { formatCount } from '@/lib/format';
import { useSearchPatients } from '@/lib/patients/queries';
import {
  AGE_RANGE_OPTIONS,
  GENDER_FILTER_OPTIONS,
  MEMBERSHIP_FILTER_OPTIONS,
  SEARCH_TYPE_OPTIONS,
} from '@/lib/patients/options';
import {
  matchesAge,
  matchesType,
  narrowsLocally,
  searchTextProblem,
  serverSearchText,
  type SearchType,
} from '@/lib/patients/searchRules';
import { PatientDetailsDialog } from '../components/PatientDetailsDialog';

const FILTERS: ListFilter[] = [
  { key: 'type', label: 'Search type', options: SEARCH_TYPE_OPTIONS },
  { key: 'gender', label: 'Gender', options: GENDER_FILTER_OPTIONS },
  { key: 'age', label: 'Age range', options: AGE_RANGE_OPTIONS },
  { key: 'membership', label: 'Membership', options: MEMBERSHIP_FILTER_OPTIONS },
];
const PAGE_SIZES = [10, 20, 50] as const;
/** With a search type or age range the screen narrows the page it gets: ask for the largest page the server gives. */
const NARROWING_PAGE = 200;

const PLACEHOLDERS: Record<SearchType, string> = {
  all: 'Name, patient ID, mobile or email',
  name: 'e.g. Asha Rao',
  patient_id: 'e.g. PAT202611210001',
  mobile: 'e.g. 98765 43210',
  email: 'e.g. name@example.com',
};

function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

const fullName = (p: Patient) => `${p.first_name} ${p.last_name}`;

/** Patient Search (spec 2.12): server-side search with the spec's search types, age ranges and filters. */
export default function PatientSearchPage() {
  const list = usePagedList({ filters: FILTERS, pageSizes: PAGE_SIZES, defaultLimit: 20 });
  const q = { search: list.search };
  const type = oneOf(list.values.type!, PATIENT_SEARCH_TYPES, 'all');
  const age = oneOf(list.values.age!, ['all', ...AGE_RANGES], 'all');
  const gender = list.values.gender!;
  const membership = list.values.membership!;
  const page = list.page;
  const narrowing = narrowsLocally(q.search, type, age);
  const limit = narrowing ? NARROWING_PAGE : list.limit;
  const problem = searchTextProblem(q.search, type);

  // Text that cannot be searched as typed (letters in a mobile search) finds nobody rather than everybody.
  const results = useSearchPatients(
    { search: serverSearchText(q.search, type), gender, membership, page, limit },
    problem === null,
  );
  const loaded = problem ? [] : results.data?.patients;
  const rows = loaded?.filter((p) => matchesType(p, q.search, type) && matchesAge(p, age));
  const [viewing, setViewing] = useState<Patient | null>(null);
  const filtersActive = list.filtersActive;

  const columns: Column<Patient>[] = [
    {
      key: 'patient_id',
      header: 'Patient ID',
      cell: (p) => <span className="font-mono text-[13px]">{p.patient_id}</span>,
    },
    { key: 'name', header: 'Name', cell: (p) => <span className="font-medium text-slate-900">{fullName(p)}</span> },
    { key: 'age', header: 'Age', cell: (p) => p.age_text ?? '—', hideOnMobile: true },
    { key: 'gender', header: 'Gender', cell: (p) => p.gender ?? '—', hideOnMobile: true },
    {
      key: 'mobile',
      header: 'Mobile',
      cell: (p) => p.phone ?? '—',
      className: 'whitespace-nowrap',
      hideOnMobile: true,
    },
    patientColumns.email,
    patientColumns.membership,
    patientColumns.registered,
  ];
  const actions: RowAction<Patient>[] = [
    { label: (p) => `View details of ${fullName(p)}`, icon: <Eye />, onClick: setViewing },
  ];

  const total = results.data?.total ?? 0;
  const totalPages = results.data?.totalPages ?? 1;

  return (
    <>
      <ScreenHeader />

      <Card className="mb-5">
        <CardHeader title="Search & Filters" icon={<Search />} />
        <div className="p-4">
          <ListFilterBar
            list={list}
            search={{ placeholder: PLACEHOLDERS[type], label: 'Search patients', debounceMs: 500 }}
            bare
          />
          {problem && (
            <p role="alert" className="mt-2 text-[13px] text-red-700">
              {problem}
            </p>
          )}
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Search Results"
          description={
            results.data
              ? narrowing
                ? `${formatCount(rows?.length ?? 0)} shown of ${formatCount(loaded?.length ?? 0)} checked on this page · ${formatCount(total)} matched by the server`
                : `${formatCount(total)} patient${total === 1 ? '' : 's'} found`
              : undefined
          }
        />
        {narrowing && results.data && (
          <p className="flex items-start gap-2 border-b border-slate-100 bg-blue-50 px-4 py-2 text-[13px] text-blue-900">
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              The server searches names, patient IDs, mobile numbers and emails together and has no age filter. The
              search type and age range are applied here, to the {formatCount(loaded?.length ?? 0)} patients of this
              page
              {totalPages > 1
                ? ` (page ${formatCount(page)} of ${formatCount(totalPages)}; use the page buttons to check the rest)`
                : ''}
              .
            </span>
          </p>
        )}
        <DataTable
          caption="Search results"
          columns={columns}
          rows={rows}
          getRowId={(p) => p.id}
          loading={results.isPending && !problem}
          error={results.isError ? results.error : undefined}
          onRetry={() => void results.refetch()}
          retryLabel="Retry Connection"
          empty={{
            title: 'No patients found',
            hint: filtersActive ? 'Try adjusting your search criteria.' : 'No patients have been registered yet.',
          }}
          rowActions={actions}
          onRowClick={setViewing}
          className={results.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}
        />
        {results.data && total > 0 && !results.isError && (
          <Pagination
            className="border-t border-slate-100"
            page={page}
            totalPages={totalPages}
            total={total}
            pageSize={limit}
            pageSizes={narrowing ? [NARROWING_PAGE] : PAGE_SIZES}
            onPageChange={(p) => list.setPage(p)}
            onPageSizeChange={narrowing ? undefined : list.setLimit}
            itemLabel={narrowing ? 'patients checked' : 'patients'}
          />
        )}
      </Card>

      <PatientDetailsDialog patient={viewing} onOpenChange={(open) => !open && setViewing(null)} />
    </>
  );
}
