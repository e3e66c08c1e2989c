import type { LucideIcon } from 'lucide-react';
import {
  Activity,
  AlertTriangle,
  BarChart3,
  Barcode,
  Bell,
  Beaker,
  Boxes,
  Building2,
  Calculator,
  ClipboardCheck,
  ClipboardList,
  CreditCard,
  Database,
  DownloadCloud,
  FileBarChart,
  FileClock,
  FileSpreadsheet,
  FileText,
  FlaskConical,
  Gauge,
  History,
  IndianRupee,
  LayoutDashboard,
  ListChecks,
  MapPin,
  Microscope,
  Package,
  ReceiptIndianRupee as Receipt,
  ScrollText,
  Search,
  Settings,
  ShieldCheck,
  Stethoscope,
  TestTube,
  TestTubes,
  TrendingUp,
  Upload,
  UserCircle,
  UserCog,
  UserPlus,
  Users,
  Wallet,
  Wand2,
  Wrench,
  Cpu,
  Bug,
} from 'lucide-react';
import type { ScreenPath } from './screens';

export interface NavItem {
  path: ScreenPath;
  label: string;
  icon: LucideIcon;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** The sidebar, exactly as the spec's table (000, 2.7): every item is shown to every user. */
export const NAV_GROUPS: NavGroup[] = [
  {
    label: 'Overview',
    items: [
      { path: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
      { path: '/enhanced-dashboard', label: 'Enhanced Dashboard', icon: Gauge },
      { path: '/analytics', label: 'Analytics', icon: BarChart3 },
      { path: '/reports', label: 'Reports', icon: FileBarChart },
      { path: '/comprehensive-reports', label: 'Comprehensive Reports', icon: FileText },
    ],
  },
  {
    label: 'Patient Management',
    items: [
      { path: '/patients', label: 'All Patients', icon: Users },
      { path: '/patient-registration', label: 'New Patient Registration', icon: UserPlus },
      { path: '/patient-registration-billing', label: 'Register Patient with Bill', icon: Receipt },
      { path: '/patient-search', label: 'Patient Search', icon: Search },
      { path: '/patient-history', label: 'Patient History', icon: History },
      { path: '/patient-portal', label: 'Patient Portal', icon: UserCircle },
    ],
  },
  {
    label: 'Test Management',
    items: [
      { path: '/test-packages', label: 'Test Packages', icon: Package },
      { path: '/test-profiles', label: 'Test Profiles', icon: ClipboardList },
      { path: '/individual-tests', label: 'Individual Tests', icon: TestTube },
      { path: '/test-pricing', label: 'Test Pricing', icon: IndianRupee },
    ],
  },
  {
    label: 'Laboratory Operations',
    items: [
      { path: '/samples', label: 'Sample Collection', icon: TestTubes },
      { path: '/barcode-system', label: 'Barcode System', icon: Barcode },
      { path: '/sample-tracking', label: 'Sample Tracking', icon: MapPin },
      { path: '/results', label: 'Result Entry', icon: FlaskConical },
      { path: '/result-validation', label: 'Result Validation', icon: ClipboardCheck },
      { path: '/quality', label: 'Quality Control', icon: ShieldCheck },
    ],
  },
  {
    label: 'Equipment & Integration',
    items: [
      { path: '/machines', label: 'Machine Integration', icon: Cpu },
      { path: '/instruments', label: 'Instruments', icon: Microscope },
      { path: '/calibration', label: 'Calibration', icon: Activity },
      { path: '/maintenance', label: 'Maintenance', icon: Wrench },
    ],
  },
  {
    label: 'Inventory & Supplies',
    items: [
      { path: '/inventory', label: 'Inventory', icon: Boxes },
      { path: '/reagents', label: 'Reagents', icon: Beaker },
      { path: '/consumables', label: 'Consumables', icon: Package },
      { path: '/stock-alerts', label: 'Stock Alerts', icon: AlertTriangle },
    ],
  },
  {
    label: 'Financial Management',
    items: [
      { path: '/billing', label: 'Billing', icon: Wallet },
      { path: '/advanced-billing', label: 'Advanced Billing', icon: Calculator },
      { path: '/op-bill', label: 'OP Bill', icon: Receipt },
      { path: '/bills-list', label: 'Bills List', icon: ListChecks },
      { path: '/billing-management', label: 'Billing Management', icon: FileSpreadsheet },
      { path: '/invoices', label: 'Invoices', icon: FileText },
      { path: '/payments', label: 'Payments', icon: CreditCard },
      { path: '/revenue', label: 'Revenue Reports', icon: TrendingUp },
    ],
  },
  {
    label: 'User & System',
    items: [
      { path: '/users', label: 'Users', icon: Users },
      { path: '/user-management', label: 'User Management', icon: UserCog },
      { path: '/multi-tenant-setup', label: 'Multi-Tenant Setup', icon: Building2 },
      { path: '/settings', label: 'Settings', icon: Settings },
      { path: '/notifications', label: 'Notifications', icon: Bell },
    ],
  },
  {
    label: 'Reports & Export',
    items: [
      { path: '/lab-reports', label: 'Lab Reports', icon: ScrollText },
      { path: '/data-import-export', label: 'Data Import/Export', icon: Database },
      { path: '/test-data-import', label: 'Test Data Import', icon: FileClock },
      { path: '/export', label: 'Data Export', icon: DownloadCloud },
      { path: '/import', label: 'Data Import', icon: Upload },
      { path: '/audit', label: 'Audit Trail', icon: ShieldCheck },
    ],
  },
  {
    label: 'Setup & Configuration',
    items: [
      { path: '/setup-wizard', label: 'Setup Wizard', icon: Wand2 },
      { path: '/debug-import', label: 'Debug Import', icon: Bug },
      { path: '/doctor-management', label: 'Doctor Management', icon: Stethoscope },
      { path: '/user-management', label: 'User Management', icon: UserCog },
    ],
  },
];

/** The group a path belongs to (first match), for the top bar's "Group / Screen" line. */
export function groupOf(path: string): string | undefined {
  return NAV_GROUPS.find((g) => g.items.some((i) => i.path === path))?.label;
}
