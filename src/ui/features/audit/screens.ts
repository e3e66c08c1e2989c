import { ShieldCheck } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/audit',
    title: 'Audit Trail',
    subtitle: 'Every change to lab data: who, when, what',
    access: 'protected',
    nav: [{ group: 'Reports & Export', label: 'Audit Trail', icon: ShieldCheck, order: 6 }],
    page: lazyPage(() => import('./pages/AuditPage')),
  },
];
