import { ShieldCheck } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/quality',
    title: 'Quality Control',
    access: 'protected',
    nav: [{ group: 'Laboratory Operations', label: 'Quality Control', icon: ShieldCheck, order: 6 }],
    page: lazyPage(() => import('./pages/QualityControlPage')),
  },
];
