import { AlertTriangle, Beaker, Boxes, Package } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  screen({
    path: '/inventory',
    title: 'Inventory Management',
    subtitle: 'Stock, lots and suppliers: every unit explained by the ledger',
    permission: 'view_inventory',
    what: 'inventory',
    icon: Boxes,
    nav: { group: 'Inventory & Supplies', order: 1, label: 'Inventory' },
    page: lazyPage(() => import('./pages/InventoryPage')),
  }),
  screen({
    path: '/reagents',
    title: 'Reagent Management',
    subtitle: 'Reagent lots, expiry, days of stock left and the tests that use them',
    permission: 'view_inventory',
    what: 'reagents',
    icon: Beaker,
    nav: { group: 'Inventory & Supplies', order: 2, label: 'Reagents' },
    home: { description: 'Reagent stock, lots and expiry.', order: 9 },
    page: lazyPage(() => import('./pages/ReagentsPage')),
  }),
  screen({
    path: '/consumables',
    title: 'Consumables Management',
    subtitle: 'Consumables with min/max stock, reorder recommendations and supplier performance',
    permission: 'view_inventory',
    what: 'consumables',
    icon: Package,
    nav: { group: 'Inventory & Supplies', order: 3, label: 'Consumables' },
    page: lazyPage(() => import('./pages/ConsumablesPage')),
  }),
  screen({
    path: '/stock-alerts',
    title: 'Stock Alerts',
    subtitle: 'Raised and resolved by the server from real stock and expiry dates',
    permission: 'view_inventory',
    what: 'stock alerts',
    icon: AlertTriangle,
    nav: { group: 'Inventory & Supplies', order: 4 },
    page: lazyPage(() => import('./pages/StockAlertsPage')),
  }),
];
