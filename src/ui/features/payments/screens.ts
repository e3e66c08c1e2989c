import { Calculator, CreditCard, TrendingUp } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';
import { screen } from '@/lib/declareScreen';

/** Payments ledger, Advanced Billing, Revenue Reports and the day-end closing. */
export const screens: ScreenDef[] = [
  screen({
    path: '/advanced-billing',
    title: 'Advanced Billing',
    subtitle: 'Bills with due dates, what is owed and what was collected, from the ledger',
    permission: 'view_bills',
    what: 'bills',
    icon: Calculator,
    nav: { group: 'Financial Management', order: 2 },
    page: lazyPage(() => import('./pages/AdvancedBillingPage')),
  }),
  screen({
    path: '/payments',
    title: 'Payment Management',
    subtitle: 'Every payment, refund and cheque of the lab, from the ledger',
    permission: 'view_bills',
    what: 'payments',
    icon: CreditCard,
    nav: { group: 'Financial Management', order: 7, label: 'Payments' },
    page: lazyPage(() => import('./pages/PaymentsPage')),
  }),
  screen({
    path: '/revenue',
    title: 'Revenue Reports',
    subtitle: 'Money received per lab day, by method, and the cashiers’ day-end closing',
    permission: 'view_bills',
    what: 'revenue',
    icon: TrendingUp,
    nav: { group: 'Financial Management', order: 8 },
    page: lazyPage(() => import('./pages/RevenuePage')),
  }),
];
