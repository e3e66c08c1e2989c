import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/home',
    title: 'Home',
    access: 'protected',
    page: lazyPage(() => import('./HomePage')),
  },
];
