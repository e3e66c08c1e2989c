import { Activity, Cpu, Microscope, Wrench } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** Equipment: the screens of the Equipment & Integration group. */
export const screens: ScreenDef[] = [
  screen({
    path: '/machines',
    title: 'Machine Integration',
    subtitle: 'Analysers and machines: status, uptime, tests per hour and maintenance',
    permission: 'view_equipment',
    what: 'equipment',
    icon: Cpu,
    nav: { group: 'Equipment & Integration', order: 1 },
    home: { description: 'Analysers, uptime and maintenance.', order: 8 },
    page: lazyPage(() => import('./pages/MachinesPage')),
  }),
  screen({
    path: '/instruments',
    title: 'Instruments',
    subtitle: 'Instruments with their readings, limits and calibration',
    permission: 'view_equipment',
    what: 'equipment',
    icon: Microscope,
    nav: { group: 'Equipment & Integration', order: 2 },
    page: lazyPage(() => import('./pages/InstrumentsPage')),
  }),
  screen({
    path: '/calibration',
    title: 'Calibration Management',
    subtitle: 'Scheduled, overdue and completed calibrations with their certificates',
    permission: 'view_equipment',
    what: 'equipment',
    icon: Activity,
    nav: { group: 'Equipment & Integration', order: 3, label: 'Calibration' },
    page: lazyPage(() => import('./pages/CalibrationPage')),
  }),
  screen({
    path: '/maintenance',
    title: 'Maintenance Management',
    subtitle: 'Scheduled and completed maintenance with costs and reports',
    permission: 'view_equipment',
    what: 'equipment',
    icon: Wrench,
    nav: { group: 'Equipment & Integration', order: 4, label: 'Maintenance' },
    page: lazyPage(() => import('./pages/MaintenancePage')),
  }),
];
