import { UserCog, Users } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/users',
    title: 'Users',
    subtitle: 'Staff accounts, roles and activity',
    icon: Users,
    nav: { group: 'User & System', order: 1 },
    home: { description: 'Staff accounts and their roles.', order: 12 },
    page: lazyPage(() => import('./pages/UsersPage')),
  }),
  screen({
    path: '/user-management',
    title: 'User Management',
    subtitle: 'Add, edit and deactivate staff accounts',
    icon: UserCog,
    nav: [
      { group: 'User & System', order: 2 },
      { group: 'Setup & Configuration', order: 4 },
    ],
    page: lazyPage(() => import('./pages/UserManagementPage')),
  }),
];
