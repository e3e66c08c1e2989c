import type { LucideIcon } from 'lucide-react';
import {
  BarChart3,
  Beaker,
  ClipboardList,
  Cpu,
  FileBarChart,
  History,
  Package,
  Search,
  TestTube,
  TestTubes,
  Users,
  Wallet,
} from 'lucide-react';
import type { ScreenPath } from '@/app/screens';

export interface ModuleCard {
  path: ScreenPath;
  title: string;
  description: string;
  icon: LucideIcon;
}

/** The 12 module cards of the home page, in the spec's order (000, 2.5). */
export const HOME_MODULES: ModuleCard[] = [
  { path: '/samples', title: 'Sample Collection', description: 'Collect, label and track specimens.', icon: TestTubes },
  {
    path: '/test-packages',
    title: 'Test Packages',
    description: 'Bundled health check packages and prices.',
    icon: Package,
  },
  {
    path: '/test-profiles',
    title: 'Test Profiles',
    description: 'Groups of tests ordered together.',
    icon: ClipboardList,
  },
  {
    path: '/individual-tests',
    title: 'Individual Tests',
    description: 'The test catalogue with ranges and units.',
    icon: TestTube,
  },
  {
    path: '/patient-search',
    title: 'Patient Search',
    description: 'Find patients by name, ID, mobile or email.',
    icon: Search,
  },
  {
    path: '/patient-history',
    title: 'Patient History',
    description: 'A patient’s visits, tests and bills.',
    icon: History,
  },
  { path: '/analytics', title: 'Analytics', description: 'Trends in workload and turnaround.', icon: BarChart3 },
  { path: '/machines', title: 'Machine Integration', description: 'Analysers connected to the lab.', icon: Cpu },
  { path: '/reagents', title: 'Reagents', description: 'Reagent stock, lots and expiry.', icon: Beaker },
  { path: '/billing', title: 'Billing', description: 'Bills, payments and dues.', icon: Wallet },
  { path: '/reports', title: 'Reports', description: 'Patient, financial and lab reports.', icon: FileBarChart },
  { path: '/users', title: 'Users', description: 'Staff accounts and their roles.', icon: Users },
];
