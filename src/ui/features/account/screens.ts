import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/**
 * One's own account: reached from the user menu, not the sidebar (the spec's sidebar is kept as it
 * is). Assembled by src/ui/app/registry.ts.
 */
export const screens: ScreenDef[] = [
  screen({
    path: '/account/two-factor',
    title: 'Two-factor sign-in',
    subtitle: 'A code from an authenticator app on your phone, as well as your password',
    page: lazyPage(() => import('./pages/TwoFactorPage')),
  }),
  screen({
    path: '/account/sessions',
    title: 'My Sessions',
    subtitle: 'Where you are signed in now: sign out any browser you do not recognise or no longer use',
    page: lazyPage(() => import('./pages/SessionsPage')),
  }),
];
