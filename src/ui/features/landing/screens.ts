import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/',
    title: 'Welcome to lims',
    access: 'public',
    page: lazyPage(() => import('./LandingPage')),
  }),
];
