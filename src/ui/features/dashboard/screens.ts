import { LayoutDashboard } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/dashboard',
    title: 'Dashboard',
    subtitle: 'Overview of your laboratory',
    access: 'protected',
    nav: [{ group: 'Overview', label: 'Dashboard', icon: LayoutDashboard, order: 1 }],
    page: lazyPage(() => import('./DashboardPage')),
  },
];
