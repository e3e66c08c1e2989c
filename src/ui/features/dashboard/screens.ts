import { LayoutDashboard } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/dashboard',
    title: 'Dashboard',
    subtitle: 'Overview of your laboratory',
    icon: LayoutDashboard,
    nav: { group: 'Overview', order: 1 },
    page: lazyPage(() => import('./DashboardPage')),
  }),
];
