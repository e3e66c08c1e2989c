import { Bug, Settings } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/**
 * The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts).
 * The debug screens are the server operator's tools: only for the superadmin of the server's first
 * lab (manage_tenants; in --demo, the demo superadmin), out of everyone else's menu.
 */
export const screens: ScreenDef[] = [
  screen({
    path: '/settings',
    title: 'System Settings',
    subtitle: 'The lab’s details, regional settings, notifications, security, backups and maintenance',
    icon: Settings,
    nav: { group: 'User & System', order: 4, label: 'Settings' },
    page: lazyPage(() => import('./pages/SettingsPage')),
  }),
  screen({
    path: '/auth-debug',
    title: 'Auth Debug',
    subtitle: 'Authentication state of this browser',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/AuthDebugPage')),
  }),
  screen({
    path: '/auth-test',
    title: 'Auth Test',
    subtitle: 'Sign-in and sign-out checks',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/AuthTestPage')),
  }),
  screen({
    path: '/debug-import',
    title: 'Debug Import System',
    subtitle: 'Check the database connection, data retrieval and patient writes',
    permission: 'manage_tenants',
    icon: Bug,
    nav: { group: 'Setup & Configuration', order: 2, label: 'Debug Import', onlyWith: 'manage_tenants' },
    page: lazyPage(() => import('./pages/DebugImportPage')),
  }),
  screen({
    path: '/test-patients',
    title: 'Test Patients',
    subtitle: 'Routing and protected-route check',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/TestPatientsPage')),
  }),
  screen({
    path: '/test-api-connection',
    title: 'API Connection Test',
    subtitle: 'Check the health and patients endpoints',
    permission: 'manage_tenants',
    page: lazyPage(() => import('./pages/ApiConnectionTestPage')),
  }),
];
