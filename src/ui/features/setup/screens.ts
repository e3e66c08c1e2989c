import { Wand2 } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/setup-wizard',
    title: 'Setup Wizard',
    subtitle: 'Set up your laboratory in five steps',
    access: 'public',
    nav: [{ group: 'Setup & Configuration', label: 'Setup Wizard', icon: Wand2, order: 1 }],
    page: lazyPage(() => import('./pages/SetupWizardPage')),
  },
];
