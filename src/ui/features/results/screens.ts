import { ClipboardCheck, FlaskConical } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/results',
    title: 'Result Entry',
    icon: FlaskConical,
    nav: { group: 'Laboratory Operations', order: 4 },
    page: lazyPage(() => import('./pages/ResultEntryPage')),
  }),
  screen({
    path: '/result-validation',
    title: 'Result Validation',
    icon: ClipboardCheck,
    nav: { group: 'Laboratory Operations', order: 5 },
    page: lazyPage(() => import('./pages/ResultValidationPage')),
  }),
];
