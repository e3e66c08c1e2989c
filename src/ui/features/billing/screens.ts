import { FileSpreadsheet, ListChecks, ReceiptIndianRupee as Receipt, Wallet } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/patient-registration-billing',
    title: 'Register Patient with Bill',
    access: 'protected',
    nav: [{ group: 'Patient Management', label: 'Register Patient with Bill', icon: Receipt, order: 3 }],
    page: lazyPage(() => import('./registration/pages/RegisterPatientWithBillPage')),
  },
  {
    path: '/billing',
    permission: 'view_bills',
    what: 'bills',
    title: 'Billing Management',
    access: 'protected',
    nav: [{ group: 'Financial Management', label: 'Billing', icon: Wallet, order: 1 }],
    home: { title: 'Billing', description: 'Bills, payments and dues.', icon: Wallet, order: 10 },
    page: lazyPage(() => import('./bills/pages/BillingManagementPage')),
  },
  {
    path: '/op-bill',
    title: 'OP Bill',
    subtitle: 'Create and manage outpatient bills with real data',
    access: 'protected',
    nav: [{ group: 'Financial Management', label: 'OP Bill', icon: Receipt, order: 3 }],
    page: lazyPage(() => import('./op-bill/pages/OpBillPage')),
  },
  {
    path: '/bills-list',
    permission: 'view_bills',
    what: 'bills',
    title: 'Bills List',
    access: 'protected',
    nav: [{ group: 'Financial Management', label: 'Bills List', icon: ListChecks, order: 4 }],
    page: lazyPage(() => import('./bills/pages/BillsListPage')),
  },
  {
    path: '/billing-management',
    permission: 'view_bills',
    what: 'bills',
    title: 'Billing Management',
    access: 'protected',
    nav: [{ group: 'Financial Management', label: 'Billing Management', icon: FileSpreadsheet, order: 5 }],
    page: lazyPage(() => import('./bills/pages/BillingManagementPage')),
  },
];
