import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/login',
    title: 'Sign In',
    access: 'public',
    page: lazyPage(() => import('./LoginPage')),
  }),
];
