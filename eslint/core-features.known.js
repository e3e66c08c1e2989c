/**
 * What src/core still does that eslint/core-features.js forbids, listed so that nothing new joins
 * it: each entry is a debt to pay down, never a place to add one. `knownEdges` are feature imports
 * that still close a cycle (payments/revenue.ts passes on the revenue analytics of reports, which
 * bench/reports.ts imports from there); `knownInternals` are files other features (the import and
 * export engine of transfer/, and data-jobs reading transfer's internals) still import directly
 * instead of through the owner's service.ts. Remove an entry when its imports are gone: the rule then keeps them gone.
 */
export const knownEdges = ['payments -> reports'];

export const knownInternals = [
  'auth/password.ts',
  'billing/history.ts',
  'billing/mappers.ts',
  'catalogue/packages.ts',
  'catalogue/profiles.ts',
  'catalogue/range-text.ts',
  'catalogue/tests.ts',
  'doctors/mappers.ts',
  'equipment/work.ts',
  'inventory/alerts.ts',
  'inventory/mappers.ts',
  'inventory/suppliers.ts',
  'patients/bulk.ts',
  'patients/export-row.ts',
  'patients/export.ts',
  'results/history.ts',
  'samples/history.ts',
  'settings/organization.ts',
  'transfer/errors.ts',
  'transfer/index.ts',
  'transfer/jobs.ts',
  'transfer/writers.ts',
  'users/permissions.ts',
];
