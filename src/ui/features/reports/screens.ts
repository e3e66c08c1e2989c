import { FileBarChart, FileText } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** Reports and Comprehensive Reports: real figures from the database, with charts. */
export const screens: ScreenDef[] = [
  {
    path: '/reports',
    title: 'Reports',
    subtitle: 'Patient, financial, laboratory and doctor reports from the lab’s own records',
    access: 'protected',
    permission: 'view_reports',
    what: 'reports',
    nav: [{ group: 'Overview', label: 'Reports', icon: FileBarChart, order: 4 }],
    home: {
      title: 'Reports',
      description: 'Patient, financial and lab reports.',
      icon: FileBarChart,
      order: 11,
    },
    page: lazyPage(() => import('./pages/ReportsPage')),
  },
  {
    path: '/comprehensive-reports',
    title: 'Comprehensive Reports',
    subtitle: 'The monthly management report: every figure of a month, with charts, in one PDF',
    access: 'protected',
    permission: 'view_reports',
    what: 'reports',
    nav: [{ group: 'Overview', label: 'Comprehensive Reports', icon: FileText, order: 5 }],
    page: lazyPage(() => import('./pages/ComprehensiveReportsPage')),
  },
];
