import { AlertTriangle, Beaker, Boxes, Package } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** The screens of this feature: routes, sidebar entries, titles (assembled by src/ui/app/registry.ts). */
export const screens: ScreenDef[] = [
  {
    path: '/inventory',
    title: 'Inventory Management',
    subtitle: 'Stock, lots and suppliers: every unit explained by the ledger',
    access: 'protected',
    permission: 'view_inventory',
    what: 'inventory',
    nav: [{ group: 'Inventory & Supplies', label: 'Inventory', icon: Boxes, order: 1 }],
    page: lazyPage(() => import('./pages/InventoryPage')),
  },
  {
    path: '/reagents',
    title: 'Reagent Management',
    subtitle: 'Reagent lots, expiry, days of stock left and the tests that use them',
    access: 'protected',
    permission: 'view_inventory',
    what: 'reagents',
    nav: [{ group: 'Inventory & Supplies', label: 'Reagents', icon: Beaker, order: 2 }],
    home: { title: 'Reagents', description: 'Reagent stock, lots and expiry.', icon: Beaker, order: 9 },
    page: lazyPage(() => import('./pages/ReagentsPage')),
  },
  {
    path: '/consumables',
    title: 'Consumables Management',
    subtitle: 'Consumables with min/max stock, reorder recommendations and supplier performance',
    access: 'protected',
    permission: 'view_inventory',
    what: 'consumables',
    nav: [{ group: 'Inventory & Supplies', label: 'Consumables', icon: Package, order: 3 }],
    page: lazyPage(() => import('./pages/ConsumablesPage')),
  },
  {
    path: '/stock-alerts',
    title: 'Stock Alerts',
    subtitle: 'Raised and resolved by the server from real stock and expiry dates',
    access: 'protected',
    permission: 'view_inventory',
    what: 'stock alerts',
    nav: [{ group: 'Inventory & Supplies', label: 'Stock Alerts', icon: AlertTriangle, order: 4 }],
    page: lazyPage(() => import('./pages/StockAlertsPage')),
  },
];
