import { FileSpreadsheet, ListChecks, ReceiptIndianRupee as Receipt, Wallet } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/patient-registration-billing',
    title: 'Register Patient with Bill',
    icon: Receipt,
    nav: { group: 'Patient Management', order: 3 },
    page: lazyPage(() => import('./registration/pages/RegisterPatientWithBillPage')),
  }),
  screen({
    path: '/billing',
    permission: 'view_bills',
    what: 'bills',
    title: 'Billing Management',
    icon: Wallet,
    nav: { group: 'Financial Management', order: 1, label: 'Billing' },
    home: { description: 'Bills, payments and dues.', order: 10 },
    page: lazyPage(() => import('./bills/pages/BillingManagementPage')),
  }),
  screen({
    path: '/op-bill',
    title: 'OP Bill',
    subtitle: 'Create and manage outpatient bills with real data',
    icon: Receipt,
    nav: { group: 'Financial Management', order: 3 },
    page: lazyPage(() => import('./op-bill/pages/OpBillPage')),
  }),
  screen({
    path: '/bills-list',
    permission: 'view_bills',
    what: 'bills',
    title: 'Bills List',
    icon: ListChecks,
    nav: { group: 'Financial Management', order: 4 },
    page: lazyPage(() => import('./bills/pages/BillsListPage')),
  }),
  screen({
    path: '/billing-management',
    permission: 'view_bills',
    what: 'bills',
    title: 'Billing Management',
    icon: FileSpreadsheet,
    nav: { group: 'Financial Management', order: 5 },
    page: lazyPage(() => import('./bills/pages/BillingManagementPage')),
  }),
];
