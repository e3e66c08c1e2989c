import { FileBarChart, FileText } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** Reports and Comprehensive Reports: real figures from the database, with charts. */
export const screens: ScreenDef[] = [
  screen({
    path: '/reports',
    title: 'Reports',
    subtitle: 'Patient, financial, laboratory and doctor reports from the lab’s own records',
    permission: 'view_reports',
    what: 'reports',
    icon: FileBarChart,
    nav: { group: 'Overview', order: 4 },
    home: { description: 'Patient, financial and lab reports.', order: 11 },
    page: lazyPage(() => import('./pages/ReportsPage')),
  }),
  screen({
    path: '/comprehensive-reports',
    title: 'Comprehensive Reports',
    subtitle: 'The monthly management report: every figure of a month, with charts, in one PDF',
    permission: 'view_reports',
    what: 'reports',
    icon: FileText,
    nav: { group: 'Overview', order: 5 },
    page: lazyPage(() => import('./pages/ComprehensiveReportsPage')),
  }),
];
