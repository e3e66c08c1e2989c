import type { CatalogueProfile } from '@shared/schemas/catalogue';
import { Badge, Money, type Column } from '@/components';
import { CatalogueScreen } from '../components/CatalogueScreen';
import { ProfileFormDialog } from '../components/ProfileFormDialog';
import { Clamp, dash, MobileStatus, TestsIncluded } from '../components/cells';

const columns: Column<CatalogueProfile>[] = [
  {
    key: 'name',
    header: 'Profile Name',
    cell: (p) => (
      <div className="min-w-36">
        <div className="font-medium text-slate-900">{p.name}</div>
        <div className="font-mono text-xs text-slate-500">{p.code}</div>
        <MobileStatus status={p.status} />
      </div>
    ),
  },
  { key: 'description', header: 'Description', cell: (p) => <Clamp text={p.description} />, hideOnMobile: true },
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
          { label: 'Code', value: <span className="font-mono">{p.code}</span> },
          { label: 'Status', value: <Badge status={p.status} /> },
          { label: 'Price', value: <Money rupees={p.price} /> },
          { label: 'Base Price', value: <Money rupees={p.base_price} /> },
          { label: 'Category', value: dash(p.category) },
          { label: 'Description', value: dash(p.description), wide: true },
        ],
        lists: [{ label: 'Tests', items: p.test_details, empty: 'No tests defined.' }],
      })}
    />
  );
}
