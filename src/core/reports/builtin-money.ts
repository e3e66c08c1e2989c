import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { collectionDaily } from './revenue.js';
import { billedByTestSummed } from './summary.js';
import { billsWithDues, duesFigures, referralsByDoctor } from './bills-repository.js';
import { discountsByUserSummed } from './money.js';

import type { BuiltInReport } from './builtin-kit.js';
import { rupees, col, pct, labDayOf, chart, byDesc, sums } from './builtin-kit.js';

/** The built-in reports of money: collection, revenue by test, dues, discounts, referrals. */
export const MONEY_REPORTS: BuiltInReport[] = [
  {
    id: 'daily-collection',
    name: 'Daily Collection',
    type: 'financial',
    description: 'Money received per lab day by method, refunds and net (from the payments ledger).',
    needs: ['view_bills'],
    aggregate: true,
    async build({ db, window, from, to }) {
      const r = await collectionDaily(db, window.organizationId, { from, to });
      const keys = ['cash', 'card', 'upi', 'bank_transfer', 'cheque', 'insurance', 'refunds', 'total'] as const;
      const rows = r.days.map((d) => ({ date: d.date, ...Object.fromEntries(keys.map((k) => [k, d[k]])) }));
      return {
        columns: [
          col('date', 'Date', 'date'),
          col('cash', 'Cash', 'money'),
          col('card', 'Card', 'money'),
          col('upi', 'UPI', 'money'),
          col('bank_transfer', 'Bank transfer', 'money'),
          col('cheque', 'Cheque', 'money'),
          col('insurance', 'Insurance', 'money'),
          col('refunds', 'Refunds', 'money'),
          col('total', 'Net', 'money'),
        ],
        rows,
        totals: { date: 'Total', ...Object.fromEntries(keys.map((k) => [k, r.totals[k]])) },
        chart: chart(
          'Net collection per day',
          'Day',
          'Net (₹)',
          'money',
          r.days.map((d) => ({ label: d.date, value: d.total })),
          'line',
        ),
        notes: [
          'A payment counts on its value date (a cheque on the day it cleared; a bounced cheque never). Refunds are subtracted on the day they were paid.',
        ],
      };
    },
  },
  {
    id: 'revenue-by-test',
    name: 'Revenue by Test',
    type: 'financial',
    description: 'What was billed per test and category after line discounts; cancelled bills excluded.',
    needs: ['view_bills'],
    aggregate: true,
    async build({ db, window }) {
      const lines = await billedByTestSummed(db, window);
      const rows = lines
        .map((l) => ({
          test_id: l.test_id === null ? null : Number(l.test_id),
          test_name: l.name,
          category:
            l.item_type === 'test'
              ? l.category || 'Uncategorised'
              : l.item_type === 'profile'
                ? 'Profiles'
                : 'Packages',
          count: Number(l.count),
          revenue: rupees(l.total_paise),
        }))
        .sort((a, b) => b.revenue - a.revenue || a.test_name.localeCompare(b.test_name));
      const cats = new Map<string, number>();
      for (const r of rows) cats.set(r.category, (cats.get(r.category) ?? 0) + r.revenue);
      const total = rupees(lines.reduce((a, l) => a + Number(l.total_paise), 0));
      return {
        columns: [
          col('test_id', 'Test ID', 'number'),
          col('test_name', 'Test'),
          col('category', 'Category'),
          col('count', 'Count', 'number'),
          col('revenue', 'Revenue', 'money'),
        ],
        rows,
        totals: { test_name: 'Total', count: rows.reduce((a, r) => a + r.count, 0), revenue: total },
        chart: chart(
          'Revenue by category',
          'Category',
          'Revenue (₹)',
          'money',
          [...cats].map(([label, v]) => ({ label, value: Math.round(v * 100) / 100 })).sort(byDesc((p) => p.value)),
        ),
        notes: [
          'Line totals of bills made in the period (price × quantity less the line discount), before the bill discount and tax. Profiles and packages are lines of their own (no test id).',
        ],
      };
    },
  },
  {
    id: 'dues',
    name: 'Dues Outstanding',
    type: 'financial',
    description: 'Bills made in the period with money still due today, oldest first.',
    needs: ['view_bills', 'view_patients'],
    aggregate: false,
    async build({ db, window, from, to, timeZone, page }) {
      const today = localDate(timeZone);
      const dayOf = labDayOf(timeZone, from, to);
      // The figures of every due bill in SQL; the rows: all, or only the page asked for (a busy
      // year has 17,000 bills with dues, each joined to its patient). A bill's age in days is
      // today's lab day less its own, so "at most N days" is "made on or after the lab day N days
      // ago began".
      const since = [7, 30, 90].map((d) => startOfLocalDayUtc(timeZone, addDays(today, -d)).toISOString());
      const [f, bills] = await Promise.all([duesFigures(db, window, since), billsWithDues(db, window, page)]);
      const rows = bills.map((b) => {
        const day = dayOf(b.created_at);
        return {
          bill_number: b.bill_number,
          bill_date: day,
          patient_code: b.patient_code,
          patient_name: b.patient_name,
          amount: rupees(b.final_amount_paise),
          paid: rupees(b.paid_paise),
          due: rupees(Number(b.final_amount_paise) - Number(b.paid_paise)),
          days_due: Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000),
        };
      });
      const [in7, in30, in90] = f.dueSince as [number, number, number];
      const ages: [string, number][] = [
        ['0-7 days', in7],
        ['8-30 days', in30 - in7],
        ['31-90 days', in90 - in30],
        ['Over 90 days', f.due - in90],
      ];
      return {
        columns: [
          col('bill_number', 'Bill No.'),
          col('bill_date', 'Date', 'date'),
          col('patient_code', 'Patient ID'),
          col('patient_name', 'Patient'),
          col('amount', 'Amount', 'money'),
          col('paid', 'Paid', 'money'),
          col('due', 'Due', 'money'),
          col('days_due', 'Days', 'number'),
        ],
        rows,
        rowCount: f.bills,
        totals: {
          bill_number: 'Total',
          bills: f.bills,
          amount: rupees(f.amount),
          paid: rupees(f.paid),
          due: rupees(f.due),
        },
        chart: chart(
          'Dues by age',
          'Age of the bill',
          'Due (₹)',
          'money',
          ages.map(([label, paise]) => ({ label, value: rupees(paise) })),
        ),
        notes: ['Cancelled bills are left out. Paid = payments less refunds (the bill’s running balance).'],
      };
    },
  },
  {
    id: 'discounts',
    name: 'Discounts Given',
    type: 'financial',
    description: 'Line and bill discounts on bills made in the period, by the user who made the bill.',
    needs: ['view_bills'],
    aggregate: true,
    async build({ db, window }) {
      const rows = (await discountsByUserSummed(db, window))
        .map((u) => {
          const line = rupees(u.line_paise);
          const bill = rupees(u.bill_paise);
          const gross = Number(u.gross_paise);
          return {
            user: u.name ?? (u.created_by === null ? 'Unknown' : `User ${u.created_by}`),
            bills: Number(u.bills),
            discounted_bills: Number(u.discounted_bills),
            line_discounts: line,
            bill_discounts: bill,
            total_discount: Math.round((line + bill) * 100) / 100,
            discount_percent: pct(Number(u.line_paise) + Number(u.bill_paise), gross),
          };
        })
        .sort(byDesc((r) => r.total_discount));
      return {
        columns: [
          col('user', 'Given by'),
          col('bills', 'Bills', 'number'),
          col('discounted_bills', 'With discount', 'number'),
          col('line_discounts', 'Line discounts', 'money'),
          col('bill_discounts', 'Bill discounts', 'money'),
          col('total_discount', 'Total discount', 'money'),
          col('discount_percent', '% of gross', 'percent'),
        ],
        rows,
        totals: {
          user: 'Total',
          ...sums(rows, ['bills', 'discounted_bills', 'line_discounts', 'bill_discounts', 'total_discount']),
        },
        chart: chart(
          'Discount by user',
          'User',
          'Discount (₹)',
          'money',
          rows.map((r) => ({ label: r.user, value: r.total_discount })),
        ),
        notes: [
          'Cancelled bills are left out. Gross = line prices before any discount plus the consultation fee.',
          'Line discounts: on single lines. Bill discounts: on a bill as a whole, the figure Revenue and the monthly report show. Total discount: both.',
        ],
      };
    },
  },
  {
    id: 'referrals-by-doctor',
    name: 'Referrals by Doctor',
    type: 'doctor',
    description: 'Bills, patients and revenue per referring doctor; cancelled bills excluded.',
    needs: ['view_bills'],
    aggregate: true,
    async build({ db, window }) {
      const rows = (await referralsByDoctor(db, window))
        .map((d) => ({
          doctor_id: d.doctor_id === null ? null : Number(d.doctor_id),
          doctor_name: d.doctor_id === null ? 'No referring doctor' : (d.name ?? `Doctor ${d.doctor_id}`),
          referrals: Number(d.bills),
          patients: Number(d.patients),
          revenue: rupees(d.billed_paise),
          collected: rupees(d.paid_paise),
        }))
        .sort((a, b) => b.revenue - a.revenue || a.doctor_name.localeCompare(b.doctor_name));
      return {
        columns: [
          col('doctor_id', 'Doctor ID', 'number'),
          col('doctor_name', 'Doctor'),
          col('referrals', 'Bills', 'number'),
          col('patients', 'Patients', 'number'),
          col('revenue', 'Billed', 'money'),
          col('collected', 'Paid', 'money'),
        ],
        rows,
        totals: { doctor_name: 'Total', ...sums(rows, ['referrals', 'revenue', 'collected']) },
        chart: chart(
          'Billed per doctor',
          'Doctor',
          'Billed (₹)',
          'money',
          rows.map((r) => ({ label: r.doctor_name, value: r.revenue })),
        ),
        notes: ['Billed = the bills’ final amounts (after discounts and tax). Patients are counted once per doctor.'],
      };
    },
  },
];
