import { Wand2 } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/setup-wizard',
    title: 'Setup Wizard',
    subtitle: 'Set up your laboratory in five steps',
    access: 'public',
    icon: Wand2,
    nav: { group: 'Setup & Configuration', order: 1 },
    page: lazyPage(() => import('./pages/SetupWizardPage')),
  }),
];
