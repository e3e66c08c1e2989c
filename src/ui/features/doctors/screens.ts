import { Stethoscope } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/doctor-management',
    title: 'Doctor Management',
    subtitle: 'Referring and consulting doctors, their details and referrals',
    access: 'protected',
    permission: 'view_users',
    what: 'doctors',
    nav: [{ group: 'Setup & Configuration', label: 'Doctor Management', icon: Stethoscope, order: 3 }],
    page: lazyPage(() => import('./pages/DoctorManagementPage')),
  },
];
