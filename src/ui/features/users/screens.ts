import { UserCog, Users } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/users',
    title: 'Users',
    subtitle: 'Staff accounts, roles and activity',
    access: 'protected',
    nav: [{ group: 'User & System', label: 'Users', icon: Users, order: 1 }],
    home: { title: 'Users', description: 'Staff accounts and their roles.', icon: Users, order: 12 },
    page: lazyPage(() => import('./pages/UsersPage')),
  },
  {
    path: '/user-management',
    title: 'User Management',
    subtitle: 'Add, edit and deactivate staff accounts',
    access: 'protected',
    nav: [
      { group: 'User & System', label: 'User Management', icon: UserCog, order: 2 },
      { group: 'Setup & Configuration', label: 'User Management', icon: UserCog, order: 4 },
    ],
    page: lazyPage(() => import('./pages/UserManagementPage')),
  },
];
