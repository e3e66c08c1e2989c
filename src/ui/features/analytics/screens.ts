import { BarChart3, Gauge } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** Analytics Dashboard and Enhanced Dashboard: charts load with these pages only. */
export const screens: ScreenDef[] = [
  screen({
    path: '/enhanced-dashboard',
    title: 'Enhanced Dashboard',
    subtitle: "Today's bench: samples, results waiting, critical values, turnaround breaches",
    permission: 'view_results',
    what: 'the live operations board',
    icon: Gauge,
    nav: { group: 'Overview', order: 2 },
    page: lazyPage(() => import('./pages/EnhancedDashboardPage')),
  }),
  screen({
    path: '/analytics',
    title: 'Analytics Dashboard',
    subtitle: 'Workload, turnaround and revenue over the last days, from the lab’s records',
    permission: 'view_reports',
    what: 'analytics',
    icon: BarChart3,
    nav: { group: 'Overview', order: 3, label: 'Analytics' },
    home: { description: 'Trends in workload and turnaround.', order: 7 },
    page: lazyPage(() => import('./pages/AnalyticsPage')),
  }),
];
