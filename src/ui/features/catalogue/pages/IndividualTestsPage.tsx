import type { CatalogueTest } from '@shared/schemas/catalogue';
import { bandLabel } from '@shared/flags';
import { Badge, Money, type Column } from '@/components';
import { CatalogueScreen } from '../components/CatalogueScreen';
import { TestFormDialog } from '../components/TestFormDialog';
import { dash, MobileStatus } from '../components/cells';

const columns: Column<CatalogueTest>[] = [
  {
    key: 'name',
    header: 'Test Name',
    cell: (t) => (
      <div>
        <div className="font-medium text-slate-900">{t.name}</div>
        <MobileStatus status={t.status} />
      </div>
    ),
  },
  { key: 'code', header: 'Code', cell: (t) => <span className="font-mono text-xs">{t.code}</span> },
  { key: 'category', header: 'Category', cell: (t) => dash(t.category), hideOnMobile: true },
  { key: 'price', header: 'Price', align: 'right', cell: (t) => <Money rupees={t.price} /> },
  {
    key: 'normal_range',
    header: 'Normal Range',
    cell: (t) => (
      <div>
        {dash(t.normal_range)}
        {t.reference_ranges.length > 0 && (
          <div className="text-xs text-slate-600">+ {t.reference_ranges.length} by sex and age</div>
        )}
      </div>
    ),
    hideOnMobile: true,
  },
  { key: 'unit', header: 'Unit', cell: (t) => dash(t.unit), hideOnMobile: true },
  { key: 'sample_type', header: 'Sample Type', cell: (t) => dash(t.sample_type), hideOnMobile: true },
  { key: 'status', header: 'Status', cell: (t) => <Badge status={t.status} />, hideOnMobile: true },
];

const hours = (h: number | null) => (h === null ? null : `${h} hour${h === 1 ? '' : 's'}`);

/** Individual Tests (spec 2.15): search plus category filter, add / edit / delete for real. */
export default function IndividualTestsPage() {
  return (
    <CatalogueScreen
      kind="test"
      columns={columns}
      subtitle="The lab's test menu: prices, reference ranges, units and samples"
      searchPlaceholder="Search tests by name, code or category..."
      categoryFilter
      addLabel="Add Test"
      noun="individual tests"
      renderForm={({ open, onOpenChange, item, categories }) => (
        <TestFormDialog open={open} onOpenChange={onOpenChange} test={item} categories={categories} />
      )}
      details={(t) => ({
        fields: [
          { label: 'Code', value: <span className="font-mono">{t.code}</span> },
          { label: 'Status', value: <Badge status={t.status} /> },
          { label: 'Price', value: <Money rupees={t.price} /> },
          { label: 'Base Price', value: <Money rupees={t.base_price} /> },
          { label: 'Category', value: dash(t.category) },
          { label: 'Sample Type', value: dash(t.sample_type) },
          { label: 'Normal Range', value: dash(t.normal_range) },
          { label: 'Unit', value: dash(t.unit) },
          ...(t.reference_ranges.length
            ? [
                {
                  label: 'Ranges by Sex and Age',
                  value: (
                    <ul>
                      {t.reference_ranges.map((b, i) => (
                        <li key={i}>
                          {bandLabel(b)}: {b.range}
                        </li>
                      ))}
                    </ul>
                  ),
                  wide: true,
                },
              ]
            : []),
          { label: 'Turnaround Time', value: dash(hours(t.turnaround_hours)) },
          {
            label: 'Target TAT',
            value: dash(t.target_tat_minutes === null ? null : `${t.target_tat_minutes} min`),
          },
          { label: 'Description', value: dash(t.description), wide: true },
        ],
      })}
    />
  );
}
