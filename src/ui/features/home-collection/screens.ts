import { Home, Route } from 'lucide-react';
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
];
