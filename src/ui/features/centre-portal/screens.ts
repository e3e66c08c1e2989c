import { Building2, FileText, Receipt, TestTubes, UserPlus, type LucideIcon } from 'lucide-react';
import { lazyPage, type LazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/**
 * A collection centre's own login: its account, patients, orders, bills with tube labels and
 * reports, and its statement. Listed only to a login with centre_portal, and such a login is listed
 * nothing else (the lab's own screens would answer it 403).
 */
function portalScreen(
  [path, title, subtitle]: readonly [string, string, string],
  icon: LucideIcon,
  order: number,
  page: LazyPage,
): ScreenDef {
  return screen({
    path,
    title,
    subtitle,
    permission: 'centre_portal',
    what: 'the centre portal',
    icon,
    nav: { group: 'Centre Portal', order, onlyWith: 'centre_portal' },
    page,
  });
}

export const screens: ScreenDef[] = [
  portalScreen(
    ['/centre-portal', 'Centre Account', 'Your balance, credit and whether the lab holds your reports'],
    Building2,
    1,
    lazyPage(() => import('./pages/PortalAccountPage')),
  ),
  portalScreen(
    ['/centre-portal/patients', 'Centre Patients', 'Patients your centre registered'],
    UserPlus,
    2,
    lazyPage(() => import('./pages/PortalPatientsPage')),
  ),
  portalScreen(
    ['/centre-portal/order', 'Order Tests', 'Tests for one of your patients, billed to your account'],
    TestTubes,
    3,
    lazyPage(() => import('./pages/PortalOrderPage')),
  ),
  portalScreen(
    ['/centre-portal/bills', 'Bills and Reports', 'Your orders: tube labels to print, reports once released'],
    FileText,
    4,
    lazyPage(() => import('./pages/PortalBillsPage')),
  ),
  portalScreen(
    ['/centre-portal/statement', 'Centre Statement', 'Bills, payments, ageing and your share'],
    Receipt,
    5,
    lazyPage(() => import('./pages/PortalStatementPage')),
  ),
];
