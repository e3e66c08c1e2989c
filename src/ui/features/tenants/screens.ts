import { Building2 } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/multi-tenant-setup',
    title: 'Multi-Tenant Setup',
    subtitle: 'The labs on this server: each with its own data, staff and address',
    access: 'protected',
    permission: 'manage_tenants',
    what: 'the labs on this server',
    nav: [{ group: 'User & System', label: 'Multi-Tenant Setup', icon: Building2, order: 3 }],
    page: lazyPage(() => import('./pages/MultiTenantSetupPage')),
  },
];
