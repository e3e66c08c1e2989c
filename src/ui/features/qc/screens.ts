import { ShieldCheck } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/quality',
    title: 'Quality Control',
    icon: ShieldCheck,
    nav: { group: 'Laboratory Operations', order: 6 },
    page: lazyPage(() => import('./pages/QualityControlPage')),
  }),
];
