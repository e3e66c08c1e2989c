import { BarChart3, Gauge } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** Analytics Dashboard and Enhanced Dashboard: charts load with these pages only. */
export const screens: ScreenDef[] = [
  {
    path: '/enhanced-dashboard',
    title: 'Enhanced Dashboard',
    subtitle: "Today's bench: samples, results waiting, critical values, turnaround breaches",
    access: 'protected',
    permission: 'view_results',
    what: 'the live operations board',
    nav: [{ group: 'Overview', label: 'Enhanced Dashboard', icon: Gauge, order: 2 }],
    page: lazyPage(() => import('./pages/EnhancedDashboardPage')),
  },
  {
    path: '/analytics',
    title: 'Analytics Dashboard',
    subtitle: 'Workload, turnaround and revenue over the last days, from the lab’s records',
    access: 'protected',
    permission: 'view_reports',
    what: 'analytics',
    nav: [{ group: 'Overview', label: 'Analytics', icon: BarChart3, order: 3 }],
    home: {
      title: 'Analytics',
      description: 'Trends in workload and turnaround.',
      icon: BarChart3,
      order: 7,
    },
    page: lazyPage(() => import('./pages/AnalyticsPage')),
  },
];
