import { ClipboardCheck, FlaskConical } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/results',
    title: 'Result Entry',
    access: 'protected',
    nav: [{ group: 'Laboratory Operations', label: 'Result Entry', icon: FlaskConical, order: 4 }],
    page: lazyPage(() => import('./pages/ResultEntryPage')),
  },
  {
    path: '/result-validation',
    title: 'Result Validation',
    access: 'protected',
    nav: [{ group: 'Laboratory Operations', label: 'Result Validation', icon: ClipboardCheck, order: 5 }],
    page: lazyPage(() => import('./pages/ResultValidationPage')),
  },
];
