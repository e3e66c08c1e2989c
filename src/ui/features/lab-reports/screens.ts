import { ScrollText } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/lab-reports',
    title: 'Lab Reports',
    subtitle: 'Patient lab reports, their status, critical values, templates and quality figures',
    permission: 'view_results',
    what: 'lab reports',
    icon: ScrollText,
    nav: { group: 'Reports & Export', order: 1 },
    page: lazyPage(() => import('./pages/LabReportsPage')),
  }),
  screen({
    // The report's QR code opens /verify-report#<token>: no sign-in (the token stays out of server logs).
    path: '/verify-report',
    title: 'Report Verification',
    access: 'public',
    page: lazyPage(() => import('./pages/VerifyReportPage')),
  }),
];
