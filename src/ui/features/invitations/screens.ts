import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    // The token follows '#': /invitation#<token> (never sent to a server, so no log keeps it).
    path: '/invitation',
    title: 'Set Your Password',
    access: 'public',
    page: lazyPage(() => import('./InvitationPage')),
  },
];
