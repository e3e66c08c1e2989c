import { UserCircle } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/patient-portal',
    title: 'Patient Portal',
    subtitle: 'Appointments, test results and bills for patients',
    access: 'public',
    nav: [{ group: 'Patient Management', label: 'Patient Portal', icon: UserCircle, order: 6 }],
    page: lazyPage(() => import('./pages/PatientPortalPage')),
  },
];
