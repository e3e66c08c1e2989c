import { ClipboardCheck, FlaskConical } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/results',
    title: 'Result Entry',
    subtitle: 'Enter, verify and print test results',
    icon: FlaskConical,
    nav: { group: 'Laboratory Operations', order: 4 },
    page: lazyPage(() => import('./pages/ResultEntryPage')),
  }),
  screen({
    path: '/result-validation',
    title: 'Result Validation',
    subtitle: 'Review entered results, validate or reject them, and watch critical values',
    icon: ClipboardCheck,
    nav: { group: 'Laboratory Operations', order: 5 },
    page: lazyPage(() => import('./pages/ResultValidationPage')),
  }),
];
