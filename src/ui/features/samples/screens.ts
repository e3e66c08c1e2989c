import { Barcode, MapPin, PackageCheck, TestTubes } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/samples',
    permission: 'view_samples',
    what: 'samples',
    title: 'Sample Collection',
    icon: TestTubes,
    nav: { group: 'Laboratory Operations', order: 1 },
    home: { description: 'Collect, label and track specimens.', order: 1 },
    page: lazyPage(() => import('./pages/SampleCollectionPage')),
  }),
  screen({
    path: '/barcode-system',
    permission: 'view_samples',
    what: 'the barcode system',
    title: 'Barcode System',
    icon: Barcode,
    nav: { group: 'Laboratory Operations', order: 2 },
    page: lazyPage(() => import('./pages/BarcodeSystemPage')),
  }),
  screen({
    path: '/sample-tracking',
    permission: 'view_samples',
    what: 'sample tracking',
    title: 'Sample Tracking',
    icon: MapPin,
    nav: { group: 'Laboratory Operations', order: 3 },
    page: lazyPage(() => import('./pages/SampleTrackingPage')),
  }),
  screen({
    path: '/samples/receive-home',
    permission: 'manage_samples',
    what: 'home tube reception',
    title: 'Receive Home Tubes',
    subtitle: 'Tubes drawn at patients’ homes and on their way: scan each one in as it reaches the lab',
    icon: PackageCheck,
    nav: { group: 'Laboratory Operations', order: 4, label: 'Receive Home Tubes' },
    page: lazyPage(() => import('./pages/ReceiveHomeTubesPage')),
  }),
];
