import { Stethoscope } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/doctor-management',
    title: 'Doctor Management',
    subtitle: 'Referring and consulting doctors, their details and referrals',
    permission: 'view_users',
    what: 'doctors',
    icon: Stethoscope,
    nav: { group: 'Setup & Configuration', order: 3 },
    page: lazyPage(() => import('./pages/DoctorManagementPage')),
  }),
];
