import { Building2 } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/multi-tenant-setup',
    title: 'Multi-Tenant Setup',
    subtitle: 'The labs on this server: each with its own data, staff and address',
    permission: 'manage_tenants',
    what: 'the labs on this server',
    icon: Building2,
    nav: { group: 'User & System', order: 3 },
    page: lazyPage(() => import('./pages/MultiTenantSetupPage')),
  }),
];
