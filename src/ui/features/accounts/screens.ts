import { Calculator } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/accounts',
    title: 'Accounts',
    subtitle: 'The month for the accountant: Tally day book, GSTR-1 and e-invoices',
    permission: 'export_accounts',
    what: 'the accountant’s month',
    icon: Calculator,
    nav: { group: 'Financial Management', order: 9 },
    page: lazyPage(() => import('./pages/AccountsPage')),
  }),
];
