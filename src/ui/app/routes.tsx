import { lazy, type ComponentType } from 'react';
import { SCREENS, type ScreenPath } from './screens';
import { ModulePlaceholder } from './ModulePlaceholder';

/**
 * THE route table: one line per route of the spec's route map. To build a screen, write the page
 * (default export) under src/ui/features/<feature>/pages/ and swap its line from
 *   '/audit': page(() => import('@/features/audit/pages/AuditPage')),
 * to
 *   '/audit': page(() => import('@/features/audit/pages/AuditPage')),
 * Whether a route is public or protected comes from SCREENS (screens.ts), as the spec lists it.
 */
type Page = ComponentType;

/** A lazily loaded page: each screen is its own chunk, so the first load stays small. */
const page = (load: () => Promise<{ default: Page }>): Page => lazy(load);

/** A route whose feature belongs to a later issue: its title and a plain "not available yet" note. */
const soon = (path: ScreenPath): Page => {
  const Placeholder = () => <ModulePlaceholder path={path} />;
  Placeholder.displayName = `ModulePlaceholder(${path})`;
  return Placeholder;
};

export const ROUTES: Record<ScreenPath, Page> = {
  // Public
  '/': page(() => import('@/features/landing/LandingPage')),
  '/login': page(() => import('@/features/auth/LoginPage')),
  '/auth-debug': page(() => import('@/features/system/pages/AuthDebugPage')),
  '/auth-test': page(() => import('@/features/system/pages/AuthTestPage')),
  '/patient-portal': page(() => import('@/features/portal/pages/PatientPortalPage')),
  '/setup-wizard': page(() => import('@/features/setup/pages/SetupWizardPage')),

  // Overview
  '/home': page(() => import('@/features/home/HomePage')),
  '/dashboard': page(() => import('@/features/dashboard/DashboardPage')),
  '/enhanced-dashboard': soon('/enhanced-dashboard'),
  '/analytics': soon('/analytics'),
  '/reports': soon('/reports'),
  '/comprehensive-reports': soon('/comprehensive-reports'),

  // Patient Management
  '/patients': page(() => import('@/features/patients/pages/PatientsPage')),
  '/patient-registration': page(() => import('@/features/patients/pages/PatientRegistrationPage')),
  '/patient-registration-billing': page(
    () => import('@/features/billing/registration/pages/RegisterPatientWithBillPage'),
  ),
  '/patient-search': page(() => import('@/features/patients/pages/PatientSearchPage')),
  '/patient-history': page(() => import('@/features/history/pages/PatientHistoryPage')),

  // Test Management
  '/test-packages': page(() => import('@/features/catalogue/pages/TestPackagesPage')),
  '/test-profiles': page(() => import('@/features/catalogue/pages/TestProfilesPage')),
  '/individual-tests': page(() => import('@/features/catalogue/pages/IndividualTestsPage')),
  '/test-pricing': page(() => import('@/features/catalogue/pages/TestPricingPage')),

  // Laboratory Operations
  '/samples': page(() => import('@/features/samples/pages/SampleCollectionPage')),
  '/barcode-system': page(() => import('@/features/samples/pages/BarcodeSystemPage')),
  '/sample-tracking': page(() => import('@/features/samples/pages/SampleTrackingPage')),
  '/results': page(() => import('@/features/results/pages/ResultEntryPage')),
  '/result-validation': page(() => import('@/features/results/pages/ResultValidationPage')),
  '/quality': page(() => import('@/features/qc/pages/QualityControlPage')),

  // Equipment & Integration
  '/machines': soon('/machines'),
  '/instruments': soon('/instruments'),
  '/calibration': soon('/calibration'),
  '/maintenance': soon('/maintenance'),

  // Inventory & Supplies
  '/inventory': soon('/inventory'),
  '/reagents': soon('/reagents'),
  '/consumables': soon('/consumables'),
  '/stock-alerts': soon('/stock-alerts'),

  // Financial Management
  '/billing': page(() => import('@/features/billing/bills/pages/BillingManagementPage')),
  '/advanced-billing': soon('/advanced-billing'),
  '/op-bill': page(() => import('@/features/billing/op-bill/pages/OpBillPage')),
  '/bills-list': page(() => import('@/features/billing/bills/pages/BillsListPage')),
  '/billing-management': page(() => import('@/features/billing/bills/pages/BillingManagementPage')),
  '/invoices': soon('/invoices'),
  '/payments': soon('/payments'),
  '/revenue': soon('/revenue'),

  // User & System
  '/users': page(() => import('@/features/users/pages/UsersPage')),
  '/user-management': page(() => import('@/features/users/pages/UserManagementPage')),
  '/multi-tenant-setup': soon('/multi-tenant-setup'),
  '/settings': soon('/settings'),
  '/notifications': soon('/notifications'),

  // Reports & Export
  '/lab-reports': soon('/lab-reports'),
  '/data-import-export': soon('/data-import-export'),
  '/test-data-import': soon('/test-data-import'),
  '/export': soon('/export'),
  '/import': soon('/import'),
  '/audit': page(() => import('@/features/audit/pages/AuditPage')),

  // Setup & Configuration, diagnostics
  '/debug-import': page(() => import('@/features/system/pages/DebugImportPage')),
  '/doctor-management': soon('/doctor-management'),
  '/test-patients': page(() => import('@/features/system/pages/TestPatientsPage')),
  '/test-api-connection': page(() => import('@/features/system/pages/ApiConnectionTestPage')),
};

export const PUBLIC_PATHS = (Object.keys(SCREENS) as ScreenPath[]).filter((p) => SCREENS[p].access === 'public');
export const PROTECTED_PATHS = (Object.keys(SCREENS) as ScreenPath[]).filter((p) => SCREENS[p].access === 'protected');
