import type { CatalogueProfile } from '@shared/schemas/catalogue';
import { Badge, Money, type Column } from '@/components';
import { CatalogueScreen } from '../components/CatalogueScreen';
import { ProfileFormDialog } from '../components/ProfileFormDialog';
import { dash, descriptionColumn, setNameColumn, setPriceFields, TestsIncluded } from '../components/cells';

const columns: Column<CatalogueProfile>[] = [
  setNameColumn('Profile Name'),
  descriptionColumn(),
  { key: 'category', header: 'Category', cell: (p) => dash(p.category), hideOnMobile: true },
  { key: 'price', header: 'Price', align: 'right', cell: (p) => <Money rupees={p.price} /> },
  { key: 'tests', header: 'Tests Included', cell: (p) => <TestsIncluded names={p.tests} />, hideOnMobile: true },
  { key: 'status', header: 'Status', cell: (p) => <Badge status={p.status} />, hideOnMobile: true },
];

/** Test Profiles (spec 2.15): search plus category filter, add / edit / delete for real. */
export default function TestProfilesPage() {
  return (
    <CatalogueScreen
      kind="profile"
      columns={columns}
      subtitle="Groups of tests billed together at the profile's own price"
      searchPlaceholder="Search profiles by name or category..."
      categoryFilter
      addLabel="Add Profile"
      noun="test profiles"
      renderForm={({ open, onOpenChange, item, categories }) => (
        <ProfileFormDialog open={open} onOpenChange={onOpenChange} profile={item} categories={categories} />
      )}
      details={(p) => ({
        fields: [
          ...setPriceFields(p),
          { label: 'Category', value: dash(p.category) },
          { label: 'Description', value: dash(p.description), wide: true },
        ],
        lists: [{ label: 'Tests', items: p.test_details, empty: 'No tests defined.' }],
      })}
    />
  );
}
