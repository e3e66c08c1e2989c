import type { Permission } from '@shared/roles';
import type { LucideIcon } from 'lucide-react';
import { NAV_GROUPS_ORDER, type ScreenDef } from '@/lib/screens';
// Each feature declares its own screens. A new feature adds one line here; a new screen of an
// existing feature touches only that feature's screens.ts.
import { screens as account } from '@/features/account/screens';
import { screens as accounts } from '@/features/accounts/screens';
import { screens as audit } from '@/features/audit/screens';
import { screens as auth } from '@/features/auth/screens';
import { screens as autoverify } from '@/features/autoverify/screens';
import { screens as billing } from '@/features/billing/screens';
import { screens as catalogue } from '@/features/catalogue/screens';
import { screens as dashboard } from '@/features/dashboard/screens';
import { screens as data } from '@/features/data/screens';
import { screens as analytics } from '@/features/analytics/screens';
import { screens as doctors } from '@/features/doctors/screens';
import { screens as equipment } from '@/features/equipment/screens';
import { screens as history } from '@/features/history/screens';
import { screens as inventory } from '@/features/inventory/screens';
import { screens as invoices } from '@/features/invoices/screens';
import { screens as centres } from '@/features/centres/screens';
import { screens as centrePortal } from '@/features/centre-portal/screens';
import { screens as invitations } from '@/features/invitations/screens';
import { screens as labReports } from '@/features/lab-reports/screens';
import { screens as home } from '@/features/home/screens';
import { screens as homeCollection } from '@/features/home-collection/screens';
import { screens as landing } from '@/features/landing/screens';
import { screens as notifications } from '@/features/notifications/screens';
import { screens as patients } from '@/features/patients/screens';
import { screens as payments } from '@/features/payments/screens';
import { screens as portal } from '@/features/portal/screens';
import { screens as qc } from '@/features/qc/screens';
import { screens as reports } from '@/features/reports/screens';
import { screens as reportDelivery } from '@/features/report-delivery/screens';
import { screens as results } from '@/features/results/screens';
import { screens as samples } from '@/features/samples/screens';
import { screens as setup } from '@/features/setup/screens';
import { screens as system } from '@/features/system/screens';
import { screens as tenants } from '@/features/tenants/screens';
import { screens as users } from '@/features/users/screens';

/** Every route of the spec's route map (document 000, 2.1), each declared by its feature. */
export const SCREENS: readonly ScreenDef[] = [
  ...landing,
  ...auth,
  ...invitations,
  ...setup,
  ...portal,
  ...centrePortal,
  ...home,
  ...dashboard,
  ...analytics,
  ...patients,
  ...history,
  ...catalogue,
  ...billing,
  ...payments,
  ...invoices,
  ...centres,
  ...accounts,
  ...samples,
  ...homeCollection,
  ...results,
  ...autoverify,
  ...labReports,
  ...reportDelivery,
  ...qc,
  ...inventory,
  ...users,
  ...tenants,
  ...doctors,
  ...equipment,
  ...reports,
  ...audit,
  ...notifications,
  ...data,
  ...account,
  ...system,
];

const byPath = new Map(SCREENS.map((s) => [s.path, s]));

export function screenFor(path: string): ScreenDef | undefined {
  return byPath.get(path);
}

export interface NavItem {
  path: string;
  label: string;
  icon: LucideIcon;
  onlyWith?: Permission;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** The sidebar, as the spec's table (000, 2.7): every item is shown to every user, but the operator's tools (onlyWith). */
export const NAV_GROUPS: NavGroup[] = NAV_GROUPS_ORDER.map((label) => ({
  label,
  items: SCREENS.flatMap((s) =>
    (s.nav ?? [])
      .filter((n) => n.group === label)
      .map((n) => ({ path: s.path, label: n.label, icon: n.icon, order: n.order, onlyWith: n.onlyWith })),
  )
    .sort((a, b) => a.order - b.order)
    .map(({ path, label: itemLabel, icon, onlyWith }) => ({ path, label: itemLabel, icon, onlyWith })),
}));

/**
 * What the menu lists to a user with these permissions. A centre's login (centre_portal) is listed
 * its portal alone: every other screen is the lab's and would answer it 403. Staff are listed every
 * item but those kept for a permission they lack (the operator's tools, the centre portal).
 */
export function visibleNavGroups(permissions: readonly Permission[]): NavGroup[] {
  const centre = permissions.includes('centre_portal');
  const shows = (item: NavItem) =>
    centre ? item.onlyWith === 'centre_portal' : !item.onlyWith || permissions.includes(item.onlyWith);
  return NAV_GROUPS.map((g) => ({ ...g, items: g.items.filter(shows) })).filter((g) => g.items.length > 0);
}

/** The group a path belongs to (first match), for the top bar's "Group / Screen" line. */
export function groupOf(path: string): string | undefined {
  return NAV_GROUPS.find((g) => g.items.some((i) => i.path === path))?.label;
}
