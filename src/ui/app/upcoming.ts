import {
  Activity,
  AlertTriangle,
  BarChart3,
  Beaker,
  Boxes,
  Calculator,
  Cpu,
  CreditCard,
  Database,
  DownloadCloud,
  FileBarChart,
  FileClock,
  FileText,
  Gauge,
  Microscope,
  Package,
  ScrollText,
  TrendingUp,
  Upload,
  Wrench,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import type { HomeCard, NavGroupName, ScreenDef } from '@/lib/screens';

/** A protected screen with one sidebar entry whose page is the "not available yet" note. */
const soon = (
  path: string,
  title: string,
  [group, label, icon, order]: [NavGroupName, string, LucideIcon, number],
  home?: HomeCard,
): ScreenDef => ({ path, title, access: 'protected', nav: [{ group, label, icon, order }], home, page: null });

/**
 * Routes of the spec whose modules are not built yet: the app shows a plain "not available yet"
 * note for each. When a feature is built, its entry moves into that feature's screens.ts.
 */
export const UPCOMING_SCREENS: ScreenDef[] = [
  soon('/enhanced-dashboard', 'Enhanced Dashboard', ['Overview', 'Enhanced Dashboard', Gauge, 2]),
  soon('/analytics', 'Analytics Dashboard', ['Overview', 'Analytics', BarChart3, 3], {
    title: 'Analytics',
    description: 'Trends in workload and turnaround.',
    icon: BarChart3,
    order: 7,
  }),
  soon('/reports', 'Reports', ['Overview', 'Reports', FileBarChart, 4], {
    title: 'Reports',
    description: 'Patient, financial and lab reports.',
    icon: FileBarChart,
    order: 11,
  }),
  soon('/comprehensive-reports', 'Comprehensive Reports', ['Overview', 'Comprehensive Reports', FileText, 5]),
  soon('/machines', 'Machine Integration', ['Equipment & Integration', 'Machine Integration', Cpu, 1], {
    title: 'Machine Integration',
    description: 'Analysers connected to the lab.',
    icon: Cpu,
    order: 8,
  }),
  soon('/instruments', 'Instruments', ['Equipment & Integration', 'Instruments', Microscope, 2]),
  soon('/calibration', 'Calibration Management', ['Equipment & Integration', 'Calibration', Activity, 3]),
  soon('/maintenance', 'Maintenance Management', ['Equipment & Integration', 'Maintenance', Wrench, 4]),
  soon('/inventory', 'Inventory Management', ['Inventory & Supplies', 'Inventory', Boxes, 1]),
  soon('/reagents', 'Reagent Management', ['Inventory & Supplies', 'Reagents', Beaker, 2], {
    title: 'Reagents',
    description: 'Reagent stock, lots and expiry.',
    icon: Beaker,
    order: 9,
  }),
  soon('/consumables', 'Consumables Management', ['Inventory & Supplies', 'Consumables', Package, 3]),
  soon('/stock-alerts', 'Stock Alerts', ['Inventory & Supplies', 'Stock Alerts', AlertTriangle, 4]),
  soon('/advanced-billing', 'Advanced Billing', ['Financial Management', 'Advanced Billing', Calculator, 2]),
  soon('/payments', 'Payment Management', ['Financial Management', 'Payments', CreditCard, 7]),
  soon('/revenue', 'Revenue Reports', ['Financial Management', 'Revenue Reports', TrendingUp, 8]),
  soon('/lab-reports', 'Lab Reports', ['Reports & Export', 'Lab Reports', ScrollText, 1]),
  soon('/data-import-export', 'Data Import/Export', ['Reports & Export', 'Data Import/Export', Database, 2]),
  soon('/test-data-import', 'Test Data Import', ['Reports & Export', 'Test Data Import', FileClock, 3]),
  soon('/export', 'Data Export', ['Reports & Export', 'Data Export', DownloadCloud, 4]),
  soon('/import', 'Data Import', ['Reports & Export', 'Data Import', Upload, 5]),
];
