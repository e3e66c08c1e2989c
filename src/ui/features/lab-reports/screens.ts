import { ScrollText } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/lab-reports',
    title: 'Lab Reports',
    subtitle: 'Patient lab reports, their status, critical values, templates and quality figures',
    access: 'protected',
    permission: 'view_results',
    what: 'lab reports',
    nav: [{ group: 'Reports & Export', label: 'Lab Reports', icon: ScrollText, order: 1 }],
    page: lazyPage(() => import('./pages/LabReportsPage')),
  },
  {
    // The report's QR code opens /verify-report#<token>: no sign-in (the token stays out of server logs).
    path: '/verify-report',
    title: 'Report Verification',
    access: 'public',
    page: lazyPage(() => import('./pages/VerifyReportPage')),
  },
];
