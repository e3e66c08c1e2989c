import { Database, DownloadCloud, FileClock, Upload } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/**
 * The data screens. Open to signed-in staff: what each may import or export is
 * decided per data type by the server (DATA_ENTITY_PERMISSIONS); the screens offer only that.
 */
export const screens: ScreenDef[] = [
  {
    path: '/data-import-export',
    title: 'Data Import/Export',
    subtitle: 'Every import and export, from here and from the command line',
    access: 'protected',
    nav: [{ group: 'Reports & Export', label: 'Data Import/Export', icon: Database, order: 2 }],
    page: lazyPage(() => import('./pages/DataImportExportPage')),
  },
  {
    path: '/test-data-import',
    title: 'Test Data Import',
    subtitle: 'Bring in the test menu: tests, profiles and packages',
    access: 'protected',
    nav: [{ group: 'Reports & Export', label: 'Test Data Import', icon: FileClock, order: 3 }],
    page: lazyPage(() => import('./pages/TestDataImportPage')),
  },
  {
    path: '/export',
    title: 'Data Export',
    subtitle: 'Patients, results, bills and users as CSV, Excel, JSON or PDF',
    access: 'protected',
    nav: [{ group: 'Reports & Export', label: 'Data Export', icon: DownloadCloud, order: 4 }],
    page: lazyPage(() => import('./pages/ExportPage')),
  },
  {
    path: '/import',
    title: 'Data Import',
    subtitle: 'Patients, results, bills and users from spreadsheets or another system',
    access: 'protected',
    nav: [{ group: 'Reports & Export', label: 'Data Import', icon: Upload, order: 5 }],
    page: lazyPage(() => import('./pages/ImportPage')),
  },
];
