import { Bell } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/notifications',
    title: 'Notifications',
    subtitle: 'Critical results, rejected samples, amended results, overdue bills and system alerts for you',
    access: 'protected',
    nav: [{ group: 'User & System', label: 'Notifications', icon: Bell, order: 5 }],
    page: lazyPage(() => import('./pages/NotificationsPage')),
  },
];
