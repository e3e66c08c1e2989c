import { Send, SlidersHorizontal } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of report delivery: the front desk's list and the patient's link page. */
export const screens: ScreenDef[] = [
  screen({
    path: '/report-delivery',
    title: 'Report Delivery',
    subtitle: "Today's reports: who has received theirs, send again, copy the link",
    permission: 'print_reports',
    what: 'report delivery',
    icon: Send,
    nav: { group: 'Reports & Export', order: 7 },
    page: lazyPage(() => import('./pages/FrontDeskPage')),
  }),
  screen({
    path: '/report-delivery/settings',
    title: 'Report Delivery Settings',
    subtitle: 'Channels, the WhatsApp account, how links open, holding until paid and the price of each message',
    permission: 'system_settings',
    what: 'report delivery settings',
    icon: SlidersHorizontal,
    nav: { group: 'User & System', order: 6, label: 'Report Delivery Settings', onlyWith: 'system_settings' },
    page: lazyPage(() => import('./pages/DeliverySettingsPage')),
  }),
  screen({
    // Links sent to patients and the report's QR code open /report-link#<token>: no sign-in, and the
    // token, in the fragment, never reaches a server log.
    path: '/report-link',
    title: 'Your Lab Report',
    access: 'public',
    page: lazyPage(() => import('./pages/ReportLinkPage')),
  }),
];
