import { Home, Route, Settings2 } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** Home collection at the desk: the bookings and the day board. */
export const screens: ScreenDef[] = [
  screen({
    path: '/home-collection',
    title: 'Home Collection',
    subtitle: 'Visits to patients’ homes: book, reschedule, cancel, assign a phlebotomist',
    permission: 'manage_home_collection',
    what: 'home collection',
    icon: Home,
    nav: { group: 'Laboratory Operations', order: 20 },
    page: lazyPage(() => import('./pages/HomeCollectionPage')),
  }),
  screen({
    path: '/home-collection/board',
    title: 'Home Collection Day Board',
    subtitle: 'The day’s visits by area and by phlebotomist, each route in slot order',
    permission: 'manage_home_collection',
    what: 'home collection',
    icon: Route,
    nav: { group: 'Laboratory Operations', order: 21, label: 'Day Board' },
    page: lazyPage(() => import('./pages/DayBoardPage')),
  }),
  screen({
    path: '/home-collection/settings',
    title: 'Home Collection Settings',
    subtitle: 'The slot calendar, the areas served by pin code and the fasting each test needs',
    permission: 'manage_home_collection',
    what: 'home collection',
    icon: Settings2,
    nav: { group: 'Laboratory Operations', order: 22, label: 'Home Visit Settings' },
    page: lazyPage(() => import('./pages/HomeCollectionSettingsPage')),
  }),
];
