import { History } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/patient-history',
    title: 'Patient History',
    access: 'protected',
    nav: [{ group: 'Patient Management', label: 'Patient History', icon: History, order: 5 }],
    home: { title: 'Patient History', description: 'A patient’s visits, tests and bills.', icon: History, order: 6 },
    page: lazyPage(() => import('./pages/PatientHistoryPage')),
  },
];
