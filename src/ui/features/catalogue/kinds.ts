/** The three kinds of catalogue item, with the words and paths each screen uses for them. */
export type ItemKind = 'test' | 'profile' | 'package';

export interface KindInfo {
  /** Toast and dialog noun: "Test package created successfully". */
  label: string;
  /** The Type column on Test Pricing. */
  typeLabel: string;
  /** The spec's failure toast (8). */
  deleteFailed: string;
  /** The screen listing this kind. */
  screen: '/individual-tests' | '/test-profiles' | '/test-packages';
}

export const KINDS: Record<ItemKind, KindInfo> = {
  test: {
    label: 'Individual test',
    typeLabel: 'Test',
    deleteFailed: 'Failed to delete individual test',
    screen: '/individual-tests',
  },
  profile: {
    label: 'Test profile',
    typeLabel: 'Profile',
    deleteFailed: 'Failed to delete test profile',
    screen: '/test-profiles',
  },
  package: {
    label: 'Test package',
    typeLabel: 'Package',
    deleteFailed: 'Failed to delete test package',
    screen: '/test-packages',
  },
};

export const ITEM_KINDS: readonly ItemKind[] = ['test', 'profile', 'package'];

export function isItemKind(v: string): v is ItemKind {
  return (ITEM_KINDS as readonly string[]).includes(v);
}

export const STATUS_FILTER_OPTIONS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

export const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** "All Categories" plus the distinct categories present, sorted (spec 2.15). */
export function categoryOptions(items: readonly { category: string | null }[] | undefined, current: string) {
  const set = new Set<string>();
  for (const i of items ?? []) if (i.category) set.add(i.category);
  // A bookmarked category that no longer exists still shows as chosen rather than silently "All".
  if (current !== 'all') set.add(current);
  return [
    { value: 'all', label: 'All Categories' },
    ...[...set].sort((a, b) => a.localeCompare(b)).map((c) => ({ value: c, label: c })),
  ];
}

export function distinctCategories(items: readonly { category: string | null }[] | undefined): string[] {
  return [...new Set((items ?? []).map((i) => i.category).filter((c): c is string => Boolean(c)))].sort((a, b) =>
    a.localeCompare(b),
  );
}

/** Markup in percent: (current - base) / base * 100; null when there is no base price to compare with. */
export function markupPercent(price: number, base: number): number | null {
  if (!(base > 0)) return null;
  return ((price - base) / base) * 100;
}

/** One decimal, "—" without a base price: "25.0%", "-10.5%". */
export function formatMarkup(m: number | null): string {
  if (m === null) return '—';
  const text = m.toFixed(1);
  // -0.04 would print "-0.0%": a change that small is no markup at all.
  return `${text === '-0.0' ? '0.0' : text}%`;
}
