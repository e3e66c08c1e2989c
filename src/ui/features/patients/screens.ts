import { Search, UserPlus, Users } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/patients',
    title: 'All Patients',
    subtitle: 'Find, view and manage registered patients',
    icon: Users,
    nav: { group: 'Patient Management', order: 1 },
    page: lazyPage(() => import('./pages/PatientsPage')),
  }),
  screen({
    path: '/patient-registration',
    title: 'New Patient Registration',
    subtitle: 'Register a new patient',
    icon: UserPlus,
    nav: { group: 'Patient Management', order: 2 },
    page: lazyPage(() => import('./pages/PatientRegistrationPage')),
  }),
  screen({
    path: '/patient-search',
    title: 'Patient Search',
    subtitle: 'Search patients by name, patient ID, mobile or email',
    icon: Search,
    nav: { group: 'Patient Management', order: 4 },
    home: { description: 'Find patients by name, ID, mobile or email.', order: 5 },
    page: lazyPage(() => import('./pages/PatientSearchPage')),
  }),
];
