import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    // The token follows '#': /invitation#<token> (never sent to a server, so no log keeps it).
    path: '/invitation',
    title: 'Set Your Password',
    access: 'public',
    page: lazyPage(() => import('./InvitationPage')),
  }),
];
