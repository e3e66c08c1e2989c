import { ClipboardList, IndianRupee, Package, TestTube } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/test-packages',
    title: 'Test Packages',
    icon: Package,
    nav: { group: 'Test Management', order: 1 },
    home: { description: 'Bundled health check packages and prices.', order: 2 },
    page: lazyPage(() => import('./pages/TestPackagesPage')),
  }),
  screen({
    path: '/test-profiles',
    title: 'Test Profiles',
    icon: ClipboardList,
    nav: { group: 'Test Management', order: 2 },
    home: { description: 'Groups of tests ordered together.', order: 3 },
    page: lazyPage(() => import('./pages/TestProfilesPage')),
  }),
  screen({
    path: '/individual-tests',
    title: 'Individual Tests',
    icon: TestTube,
    nav: { group: 'Test Management', order: 3 },
    home: { description: 'The test catalogue with ranges and units.', order: 4 },
    page: lazyPage(() => import('./pages/IndividualTestsPage')),
  }),
  screen({
    path: '/test-pricing',
    title: 'Test Pricing Management',
    icon: IndianRupee,
    nav: { group: 'Test Management', order: 4, label: 'Test Pricing' },
    page: lazyPage(() => import('./pages/TestPricingPage')),
  }),
];
