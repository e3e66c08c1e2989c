import { UserCircle } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/patient-portal',
    title: 'Patient Portal',
    subtitle: 'Appointments, test results and bills for patients',
    access: 'public',
    icon: UserCircle,
    nav: { group: 'Patient Management', order: 6 },
    page: lazyPage(() => import('./pages/PatientPortalPage')),
  }),
];
