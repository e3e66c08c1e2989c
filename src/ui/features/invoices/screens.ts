import { FileText } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/invoices',
    title: 'Invoice Management',
    subtitle: 'GST invoices for payers and patients, and the payers who settle bills',
    permission: 'view_bills',
    what: 'invoices',
    icon: FileText,
    nav: { group: 'Financial Management', order: 6, label: 'Invoices' },
    page: lazyPage(() => import('./pages/InvoicesPage')),
  }),
];
