import { Calculator, CreditCard, TrendingUp } from 'lucide-react';
import { lazyPage, type ScreenDef } from '@/lib/screens';

/** Payments ledger, Advanced Billing, Revenue Reports and the day-end closing. */
export const screens: ScreenDef[] = [
  {
    path: '/advanced-billing',
    title: 'Advanced Billing',
    subtitle: 'Bills with due dates, what is owed and what was collected, from the ledger',
    access: 'protected',
    permission: 'view_bills',
    what: 'bills',
    nav: [{ group: 'Financial Management', label: 'Advanced Billing', icon: Calculator, order: 2 }],
    page: lazyPage(() => import('./pages/AdvancedBillingPage')),
  },
  {
    path: '/payments',
    title: 'Payment Management',
    subtitle: 'Every payment, refund and cheque of the lab, from the ledger',
    access: 'protected',
    permission: 'view_bills',
    what: 'payments',
    nav: [{ group: 'Financial Management', label: 'Payments', icon: CreditCard, order: 7 }],
    page: lazyPage(() => import('./pages/PaymentsPage')),
  },
  {
    path: '/revenue',
    title: 'Revenue Reports',
    subtitle: 'Money received per lab day, by method, and the cashiers’ day-end closing',
    access: 'protected',
    permission: 'view_bills',
    what: 'revenue',
    nav: [{ group: 'Financial Management', label: 'Revenue Reports', icon: TrendingUp, order: 8 }],
    page: lazyPage(() => import('./pages/RevenuePage')),
  },
];
