import type { CataloguePackage } from '@shared/schemas/catalogue';
import { Badge, Money, type Column } from '@/components';
import { CatalogueScreen } from '../components/CatalogueScreen';
import { PackageFormDialog } from '../components/PackageFormDialog';
import { dash, descriptionColumn, setNameColumn, setPriceFields, TestsIncluded } from '../components/cells';

const columns: Column<CataloguePackage>[] = [
  setNameColumn('Package Name'),
  descriptionColumn(),
  { key: 'price', header: 'Price', align: 'right', cell: (p) => <Money rupees={p.price} /> },
  { key: 'tests', header: 'Tests Included', cell: (p) => <TestsIncluded names={p.tests} />, hideOnMobile: true },
  {
    key: 'duration',
    header: 'Duration',
    cell: (p) => p.duration ?? <span className="text-slate-500">N/A</span>,
    hideOnMobile: true,
  },
  { key: 'status', header: 'Status', cell: (p) => <Badge status={p.status} />, hideOnMobile: true },
];

/** Test Packages (spec 2.15): search by name or description, add / edit / delete for real. */
export default function TestPackagesPage() {
  return (
    <CatalogueScreen
      kind="package"
      columns={columns}
      subtitle="Health packages: tests and profiles offered together at one price"
      searchPlaceholder="Search packages by name or description..."
      addLabel="Add Package"
      noun="test packages"
      renderForm={({ open, onOpenChange, item, categories }) => (
        <PackageFormDialog open={open} onOpenChange={onOpenChange} pkg={item} categories={categories} />
      )}
      details={(p) => ({
        fields: [
          ...setPriceFields(p),
          { label: 'Duration', value: p.duration ?? 'N/A' },
          { label: 'Category', value: dash(p.category) },
          { label: 'Description', value: dash(p.description), wide: true },
        ],
        lists: [
          { label: 'Profiles', items: p.profile_details, empty: 'No profiles in this package.' },
          { label: 'Tests', items: p.test_details, empty: 'No individual tests in this package.' },
        ],
      })}
    />
  );
}
