import { ShieldCheck } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/audit',
    title: 'Audit Trail',
    subtitle: 'Every change to lab data: who, when, what',
    icon: ShieldCheck,
    nav: { group: 'Reports & Export', order: 6 },
    page: lazyPage(() => import('./pages/AuditPage')),
  }),
];
