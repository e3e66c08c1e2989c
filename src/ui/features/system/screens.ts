import { Bug, Settings } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/**
 * The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts).
 * The debug screens are the server operator's tools: only for the superadmin of the server's first
 * lab (manage_tenants; in --demo, the demo superadmin), out of everyone else's menu.
 */
export const screens: ScreenDef[] = [
  {
    path: '/settings',
    title: 'System Settings',
    subtitle: 'The lab’s details, regional settings, notifications, security, backups and maintenance',
    access: 'protected',
    nav: [{ group: 'User & System', label: 'Settings', icon: Settings, order: 4 }],
    page: lazyPage(() => import('./pages/SettingsPage')),
  },
  {
    path: '/auth-debug',
    title: 'Auth Debug',
    subtitle: 'Authentication state of this browser',
    access: 'protected',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/AuthDebugPage')),
  },
  {
    path: '/auth-test',
    title: 'Auth Test',
    subtitle: 'Sign-in and sign-out checks',
    access: 'protected',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/AuthTestPage')),
  },
  {
    path: '/debug-import',
    title: 'Debug Import System',
    subtitle: 'Check the database connection, data retrieval and patient writes',
    access: 'protected',
    permission: 'manage_tenants',
    nav: [{ group: 'Setup & Configuration', label: 'Debug Import', icon: Bug, order: 2, onlyWith: 'manage_tenants' }],
    page: lazyPage(() => import('./pages/DebugImportPage')),
  },
  {
    path: '/test-patients',
    title: 'Test Patients',
    subtitle: 'Routing and protected-route check',
    access: 'protected',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/TestPatientsPage')),
  },
  {
    path: '/test-api-connection',
    title: 'API Connection Test',
    subtitle: 'Check the health and patients endpoints',
    access: 'protected',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/ApiConnectionTestPage')),
  },
];
