import { History } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/patient-history',
    title: 'Patient History',
    icon: History,
    nav: { group: 'Patient Management', order: 5 },
    home: { description: 'A patient’s visits, tests and bills.', order: 6 },
    page: lazyPage(() => import('./pages/PatientHistoryPage')),
  }),
];
