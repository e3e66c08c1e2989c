import { Activity, Cpu, Microscope, Wrench } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** Equipment: the screens of the Equipment & Integration group. */
export const screens: ScreenDef[] = [
  {
    path: '/machines',
    title: 'Machine Integration',
    subtitle: 'Analysers and machines: status, uptime, tests per hour and maintenance',
    access: 'protected',
    permission: 'view_equipment',
    what: 'equipment',
    nav: [{ group: 'Equipment & Integration', label: 'Machine Integration', icon: Cpu, order: 1 }],
    home: { title: 'Machine Integration', description: 'Analysers, uptime and maintenance.', icon: Cpu, order: 8 },
    page: lazyPage(() => import('./pages/MachinesPage')),
  },
  {
    path: '/instruments',
    title: 'Instruments',
    subtitle: 'Instruments with their readings, limits and calibration',
    access: 'protected',
    permission: 'view_equipment',
    what: 'equipment',
    nav: [{ group: 'Equipment & Integration', label: 'Instruments', icon: Microscope, order: 2 }],
    page: lazyPage(() => import('./pages/InstrumentsPage')),
  },
  {
    path: '/calibration',
    title: 'Calibration Management',
    subtitle: 'Scheduled, overdue and completed calibrations with their certificates',
    access: 'protected',
    permission: 'view_equipment',
    what: 'equipment',
    nav: [{ group: 'Equipment & Integration', label: 'Calibration', icon: Activity, order: 3 }],
    page: lazyPage(() => import('./pages/CalibrationPage')),
  },
  {
    path: '/maintenance',
    title: 'Maintenance Management',
    subtitle: 'Scheduled and completed maintenance with costs and reports',
    access: 'protected',
    permission: 'view_equipment',
    what: 'equipment',
    nav: [{ group: 'Equipment & Integration', label: 'Maintenance', icon: Wrench, order: 4 }],
    page: lazyPage(() => import('./pages/MaintenancePage')),
  },
];
