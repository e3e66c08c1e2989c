import { BadgeCheck } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/autoverification',
    title: 'Autoverification',
    permission: 'view_results',
    what: 'autoverification',
    icon: BadgeCheck,
    nav: { group: 'Laboratory Operations', order: 7 },
    page: lazyPage(() => import('./pages/AutoverificationPage')),
  }),
  screen({
    path: '/autoverification/comparison',
    title: 'Shadow Comparison',
    subtitle: 'What the rules would have released, against what the validators did',
    permission: 'view_results',
    what: 'the shadow comparison',
    page: lazyPage(() => import('./pages/ShadowComparisonPage')),
  }),
];
