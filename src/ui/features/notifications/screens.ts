import { Bell } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/notifications',
    title: 'Notifications',
    subtitle: 'Critical results, rejected samples, amended results, overdue bills and system alerts for you',
    icon: Bell,
    nav: { group: 'User & System', order: 5 },
    page: lazyPage(() => import('./pages/NotificationsPage')),
  }),
];
