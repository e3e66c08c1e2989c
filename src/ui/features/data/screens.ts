import { Database, DownloadCloud, FileClock, Upload } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/**
 * The data screens. Open to signed-in staff: what each may import or export is
 * decided per data type by the server (DATA_ENTITY_PERMISSIONS); the screens offer only that.
 */
export const screens: ScreenDef[] = [
  screen({
    path: '/data-import-export',
    title: 'Data Import/Export',
    subtitle: 'Every import and export, from here and from the command line',
    icon: Database,
    nav: { group: 'Reports & Export', order: 2 },
    page: lazyPage(() => import('./pages/DataImportExportPage')),
  }),
  screen({
    path: '/test-data-import',
    title: 'Test Data Import',
    subtitle: 'Bring in the test menu: tests, profiles and packages',
    icon: FileClock,
    nav: { group: 'Reports & Export', order: 3 },
    page: lazyPage(() => import('./pages/TestDataImportPage')),
  }),
  screen({
    path: '/export',
    title: 'Data Export',
    subtitle: 'Patients, results, bills and users as CSV, Excel, JSON or PDF',
    icon: DownloadCloud,
    nav: { group: 'Reports & Export', order: 4 },
    page: lazyPage(() => import('./pages/ExportPage')),
  }),
  screen({
    path: '/import',
    title: 'Data Import',
    subtitle: 'Patients, results, bills and users from spreadsheets or another system',
    icon: Upload,
    nav: { group: 'Reports & Export', order: 5 },
    page: lazyPage(() => import('./pages/ImportPage')),
  }),
];
