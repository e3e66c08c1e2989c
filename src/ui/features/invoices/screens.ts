import { FileText } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/invoices',
    title: 'Invoice Management',
    subtitle: 'GST invoices for payers and patients, and the payers who settle bills',
    access: 'protected',
    permission: 'view_bills',
    what: 'invoices',
    nav: [{ group: 'Financial Management', label: 'Invoices', icon: FileText, order: 6 }],
    page: lazyPage(() => import('./pages/InvoicesPage')),
  },
];
