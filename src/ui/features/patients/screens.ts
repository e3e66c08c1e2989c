import { Search, UserPlus, Users } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/patients',
    title: 'All Patients',
    subtitle: 'Find, view and manage registered patients',
    access: 'protected',
    nav: [{ group: 'Patient Management', label: 'All Patients', icon: Users, order: 1 }],
    page: lazyPage(() => import('./pages/PatientsPage')),
  },
  {
    path: '/patient-registration',
    title: 'New Patient Registration',
    subtitle: 'Register a new patient',
    access: 'protected',
    nav: [{ group: 'Patient Management', label: 'New Patient Registration', icon: UserPlus, order: 2 }],
    page: lazyPage(() => import('./pages/PatientRegistrationPage')),
  },
  {
    path: '/patient-search',
    title: 'Patient Search',
    subtitle: 'Search patients by name, patient ID, mobile or email',
    access: 'protected',
    nav: [{ group: 'Patient Management', label: 'Patient Search', icon: Search, order: 4 }],
    home: {
      title: 'Patient Search',
      description: 'Find patients by name, ID, mobile or email.',
      icon: Search,
      order: 5,
    },
    page: lazyPage(() => import('./pages/PatientSearchPage')),
  },
];
