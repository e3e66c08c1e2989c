import { ClipboardList, IndianRupee, Package, TestTube } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/test-packages',
    title: 'Test Packages',
    access: 'protected',
    nav: [{ group: 'Test Management', label: 'Test Packages', icon: Package, order: 1 }],
    home: { title: 'Test Packages', description: 'Bundled health check packages and prices.', icon: Package, order: 2 },
    page: lazyPage(() => import('./pages/TestPackagesPage')),
  },
  {
    path: '/test-profiles',
    title: 'Test Profiles',
    access: 'protected',
    nav: [{ group: 'Test Management', label: 'Test Profiles', icon: ClipboardList, order: 2 }],
    home: { title: 'Test Profiles', description: 'Groups of tests ordered together.', icon: ClipboardList, order: 3 },
    page: lazyPage(() => import('./pages/TestProfilesPage')),
  },
  {
    path: '/individual-tests',
    title: 'Individual Tests',
    access: 'protected',
    nav: [{ group: 'Test Management', label: 'Individual Tests', icon: TestTube, order: 3 }],
    home: {
      title: 'Individual Tests',
      description: 'The test catalogue with ranges and units.',
      icon: TestTube,
      order: 4,
    },
    page: lazyPage(() => import('./pages/IndividualTestsPage')),
  },
  {
    path: '/test-pricing',
    title: 'Test Pricing Management',
    access: 'protected',
    nav: [{ group: 'Test Management', label: 'Test Pricing', icon: IndianRupee, order: 4 }],
    page: lazyPage(() => import('./pages/TestPricingPage')),
  },
];
