/**
 * Every route of the spec's route map (document 000, 2.1) with its screen name. The sidebar, the
 * top bar, placeholders and page headers read titles from here so one name is used everywhere.
 */
export interface Screen {
  title: string;
  /** One line under the title. */
  subtitle?: string;
  access: 'public' | 'protected';
}

export const SCREENS = {
  '/': { title: 'Welcome to lims', access: 'public' },
  '/login': { title: 'Sign In', access: 'public' },
  '/auth-debug': { title: 'Auth Debug', subtitle: 'Authentication state of this browser', access: 'public' },
  '/auth-test': { title: 'Auth Test', subtitle: 'Sign-in and sign-out checks', access: 'public' },
  '/patient-portal': {
    title: 'Patient Portal',
    subtitle: 'Appointments, test results and bills for patients',
    access: 'public',
  },
  '/setup-wizard': { title: 'Setup Wizard', subtitle: 'Set up your laboratory in five steps', access: 'public' },

  '/home': { title: 'Home', access: 'protected' },
  '/dashboard': { title: 'Dashboard', subtitle: 'Overview of your laboratory', access: 'protected' },
  '/enhanced-dashboard': { title: 'Enhanced Dashboard', access: 'protected' },
  '/analytics': { title: 'Analytics Dashboard', access: 'protected' },
  '/reports': { title: 'Reports', access: 'protected' },
  '/comprehensive-reports': { title: 'Comprehensive Reports', access: 'protected' },

  '/patients': { title: 'All Patients', subtitle: 'Find, view and manage registered patients', access: 'protected' },
  '/patient-registration': {
    title: 'New Patient Registration',
    subtitle: 'Register a new patient',
    access: 'protected',
  },
  '/patient-registration-billing': { title: 'Register Patient with Bill', access: 'protected' },
  '/patient-search': {
    title: 'Patient Search',
    subtitle: 'Search patients by name, patient ID, mobile or email',
    access: 'protected',
  },
  '/patient-history': { title: 'Patient History', access: 'protected' },

  '/test-packages': { title: 'Test Packages', access: 'protected' },
  '/test-profiles': { title: 'Test Profiles', access: 'protected' },
  '/individual-tests': { title: 'Individual Tests', access: 'protected' },
  '/test-pricing': { title: 'Test Pricing Management', access: 'protected' },

  '/samples': { title: 'Sample Collection', access: 'protected' },
  '/barcode-system': { title: 'Barcode System', access: 'protected' },
  '/sample-tracking': { title: 'Sample Tracking', access: 'protected' },
  '/results': { title: 'Result Entry', access: 'protected' },
  '/result-validation': { title: 'Result Validation', access: 'protected' },
  '/quality': { title: 'Quality Control', access: 'protected' },

  '/machines': { title: 'Machine Integration', access: 'protected' },
  '/instruments': { title: 'Instruments', access: 'protected' },
  '/calibration': { title: 'Calibration Management', access: 'protected' },
  '/maintenance': { title: 'Maintenance Management', access: 'protected' },

  '/inventory': { title: 'Inventory Management', access: 'protected' },
  '/reagents': { title: 'Reagent Management', access: 'protected' },
  '/consumables': { title: 'Consumables Management', access: 'protected' },
  '/stock-alerts': { title: 'Stock Alerts', access: 'protected' },

  '/billing': { title: 'Billing Management', access: 'protected' },
  '/advanced-billing': { title: 'Advanced Billing', access: 'protected' },
  '/op-bill': { title: 'OP Bill', subtitle: 'Create and manage outpatient bills with real data', access: 'protected' },
  '/bills-list': { title: 'Bills List', access: 'protected' },
  '/billing-management': { title: 'Billing Management', access: 'protected' },
  '/invoices': { title: 'Invoice Management', access: 'protected' },
  '/payments': { title: 'Payment Management', access: 'protected' },
  '/revenue': { title: 'Revenue Reports', access: 'protected' },

  '/users': { title: 'Users', subtitle: 'Staff accounts, roles and activity', access: 'protected' },
  '/user-management': {
    title: 'User Management',
    subtitle: 'Add, edit and deactivate staff accounts',
    access: 'protected',
  },
  '/multi-tenant-setup': { title: 'Multi-Tenant Setup', access: 'protected' },
  '/settings': { title: 'System Settings', access: 'protected' },
  '/notifications': { title: 'Notifications', access: 'protected' },

  '/lab-reports': { title: 'Lab Reports', access: 'protected' },
  '/data-import-export': { title: 'Data Import/Export', access: 'protected' },
  '/test-data-import': { title: 'Test Data Import', access: 'protected' },
  '/export': { title: 'Data Export', access: 'protected' },
  '/import': { title: 'Data Import', access: 'protected' },
  '/audit': { title: 'Audit Trail', subtitle: 'Every change to lab data: who, when, what', access: 'protected' },

  '/debug-import': {
    title: 'Debug Import System',
    subtitle: 'Check the database connection, data retrieval and patient writes',
    access: 'protected',
  },
  '/doctor-management': { title: 'Doctor Management', access: 'protected' },
  '/test-patients': { title: 'Test Patients', subtitle: 'Routing and protected-route check', access: 'protected' },
  '/test-api-connection': {
    title: 'API Connection Test',
    subtitle: 'Check the health and patients endpoints',
    access: 'protected',
  },
} as const satisfies Record<string, Screen>;

export type ScreenPath = keyof typeof SCREENS;

export function screenFor(path: string): Screen | undefined {
  return (SCREENS as Record<string, Screen>)[path];
}
