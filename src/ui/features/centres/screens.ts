import { Building2 } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/centres',
    title: 'Collection Centres',
    subtitle: 'Partner centres: their rates, share, credit and account',
    permission: 'view_bills',
    what: 'collection centres',
    icon: Building2,
    nav: { group: 'Financial Management', order: 7, label: 'Centres' },
    page: lazyPage(() => import('./pages/CentresPage')),
  }),
];
