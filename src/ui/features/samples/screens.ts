import { Barcode, MapPin, TestTubes } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/samples',
    permission: 'view_samples',
    what: 'samples',
    title: 'Sample Collection',
    access: 'protected',
    nav: [{ group: 'Laboratory Operations', label: 'Sample Collection', icon: TestTubes, order: 1 }],
    home: { title: 'Sample Collection', description: 'Collect, label and track specimens.', icon: TestTubes, order: 1 },
    page: lazyPage(() => import('./pages/SampleCollectionPage')),
  },
  {
    path: '/barcode-system',
    permission: 'view_samples',
    what: 'the barcode system',
    title: 'Barcode System',
    access: 'protected',
    nav: [{ group: 'Laboratory Operations', label: 'Barcode System', icon: Barcode, order: 2 }],
    page: lazyPage(() => import('./pages/BarcodeSystemPage')),
  },
  {
    path: '/sample-tracking',
    permission: 'view_samples',
    what: 'sample tracking',
    title: 'Sample Tracking',
    access: 'protected',
    nav: [{ group: 'Laboratory Operations', label: 'Sample Tracking', icon: MapPin, order: 3 }],
    page: lazyPage(() => import('./pages/SampleTrackingPage')),
  },
];
