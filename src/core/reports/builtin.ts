import { TURNAROUND_TARGET_DEFINITION } from '../../shared/figures.js';
import type { Db } from '../db/connection.js';
import type { Permission } from '../../shared/roles.js';
import type { BuiltInReportId, ColumnKind, ReportType } from '../../shared/reports.js';
import type { ReportChart, ReportColumn, ReportPage } from '../../shared/schemas/reports.js';
import { ageOn } from '../../shared/age.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../shared/time.js';
import { collectionDaily } from '../payments/revenue.js';
import { billedByTestSummed, workloadByTestSummed } from './summary.js';
import { turnaroundByTest } from './turnaround.js';
import { billsWithDues, discountsByUser, duesFigures, referralsByDoctor } from './bills-repository.js';
import {
  criticalCallTimes,
  criticalResults,
  patientDemographics,
  patientsRegistered,
  rejectionCounts,
  type Window,
} from './repository.js';

/**
 * The built-in reports. Each turns the rows of src/core/reports/repository.ts into
 * columns, rows (money in rupees), totals and one chart whose points are also shown as a table.
 * Every figure is computed from the database for the lab days from..to.
 */

export type Cell = string | number | null;
export type Row = Record<string, Cell>;
export interface Built {
  columns: ReportColumn[];
  /** Every row of the period, or only the page asked for when rowCount is given. */
  rows: Row[];
  /** The period's rows, when the builder read only the page (rows) itself. */
  rowCount?: number;
  totals: Row | null;
  chart: ReportChart | null;
  notes: string[];
}
export interface RunContext {
  db: Db;
  window: Window;
  from: string;
  to: string;
  timeZone: string;
  /** The page of rows asked for (null: all); a builder may read only it, else the service slices. */
  page: ReportPage | null;
}
export interface BuiltInReport {
  id: BuiltInReportId;
  name: string;
  type: ReportType;
  description: string;
  /** Permissions beyond view_reports that the report's rows need. */
  needs: Permission[];
  /** False when the rows name patients: a doctor limited to their own patients does not get it. */
  aggregate: boolean;
  build(ctx: RunContext): Promise<Built>;
}

const rupees = (paise: number | string | null | undefined) => Math.round(Number(paise ?? 0)) / 100;
const col = (key: string, label: string, kind: ColumnKind = 'text'): ReportColumn => ({ key, label, kind });
const pct = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 100);

/** Linear-interpolated percentile (as spreadsheets' PERCENTILE.INC) of sorted values. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}
const minutesRounded = (m: number | null) => (m === null ? null : Math.round(m));

/**
 * The lab day of an instant of the period from..to, found among the days' UTC starts (one time-zone
 * conversion per day instead of one per row: a year's dues are 17,000 bills).
 */
function labDayOf(timeZone: string, from: string, to: string): (iso: string) => string {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  const starts = days.map((d) => startOfLocalDayUtc(timeZone, d).toISOString());
  const end = startOfLocalDayUtc(timeZone, addDays(to, 1)).toISOString();
  return (iso) => {
    // Outside the period (not a row of it): the conversion itself.
    if (days.length === 0 || iso < starts[0]! || iso >= end) return localDate(timeZone, new Date(iso));
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= iso) lo = mid;
      else hi = mid - 1;
    }
    return days[lo]!;
  };
}

const chart = (
  title: string,
  label: string,
  valueLabel: string,
  valueKind: ColumnKind,
  points: { label: string; value: number }[],
  kind: 'bar' | 'line' = 'bar',
): ReportChart => ({ title, kind, label, value_label: valueLabel, value_kind: valueKind, points });

const byDesc =
  <T>(f: (t: T) => number) =>
  (a: T, b: T) =>
    f(b) - f(a);

export const BUILT_IN_REPORTS: BuiltInReport[] = [
  {
    id: 'patient-register',
    name: 'Patient Register',
    type: 'patient',
    description: 'Patients registered in the period, with sex and age (demographics in the totals).',
    needs: ['view_patients'],
    aggregate: false,
    async build({ db, window, to, page }) {
      // The period's demographics in one pass over an index; the rows: all, or the page asked for (a
      // busy year registers over 100,000 patients).
      const { patients, male, female, other, bands } = await patientDemographics(db, window, to);
      const out = (await patientsRegistered(db, window, page)).map((p) => ({
        patient_code: p.patient_code,
        name: p.name,
        gender: p.gender,
        age: p.date_of_birth ? ageOn(p.date_of_birth, to) : null,
        city: p.city,
        registered_at: p.created_at,
      }));
      return {
        columns: [
          col('patient_code', 'Patient ID'),
          col('name', 'Name'),
          col('gender', 'Gender'),
          col('age', 'Age', 'number'),
          col('city', 'City'),
          col('registered_at', 'Registered', 'datetime'),
        ],
        rows: out,
        rowCount: patients,
        totals: { patients, male, female, other },
        chart: chart(
          'Patients by age group',
          'Age group',
          'Patients',
          'number',
          Object.entries(bands).map(([label, value]) => ({ label, value })),
        ),
        notes: ['Age on the last day of the period.'],
      };
    },
  },
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
      const rows = (await discountsByUser(db, window))
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
      const sum = (k: 'bills' | 'discounted_bills' | 'line_discounts' | 'bill_discounts' | 'total_discount') =>
        Math.round(rows.reduce((a, r) => a + r[k] * 100, 0)) / 100;
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
          bills: sum('bills'),
          discounted_bills: sum('discounted_bills'),
          line_discounts: sum('line_discounts'),
          bill_discounts: sum('bill_discounts'),
          total_discount: sum('total_discount'),
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
    id: 'workload-by-test',
    name: 'Workload by Test',
    type: 'laboratory',
    description: 'Tests ordered on samples of the period, resulted and verified, by test and department.',
    needs: ['view_results'],
    aggregate: true,
    async build({ db, window }) {
      const rows = (await workloadByTestSummed(db, window))
        .map((t) => ({
          test_id: Number(t.test_id),
          test_name: t.test_name,
          department: t.category || 'Uncategorised',
          ordered: Number(t.ordered),
          resulted: Number(t.resulted),
          verified: Number(t.verified),
          rejected: Number(t.rejected),
        }))
        .sort((a, b) => b.ordered - a.ordered || a.test_name.localeCompare(b.test_name));
      const dept = new Map<string, number>();
      for (const r of rows) dept.set(r.department, (dept.get(r.department) ?? 0) + r.ordered);
      const sum = (k: 'ordered' | 'resulted' | 'verified' | 'rejected') => rows.reduce((a, r) => a + r[k], 0);
      return {
        columns: [
          col('test_id', 'Test ID', 'number'),
          col('test_name', 'Test'),
          col('department', 'Department'),
          col('ordered', 'Ordered', 'number'),
          col('resulted', 'Resulted', 'number'),
          col('verified', 'Verified', 'number'),
          col('rejected', 'On rejected samples', 'number'),
        ],
        rows,
        totals: {
          test_name: 'Total',
          ordered: sum('ordered'),
          resulted: sum('resulted'),
          verified: sum('verified'),
          rejected: sum('rejected'),
        },
        chart: chart(
          'Tests ordered by department',
          'Department',
          'Tests',
          'number',
          [...dept].map(([label, value]) => ({ label, value })).sort(byDesc((p) => p.value)),
        ),
        notes: ['A sample belongs to the lab day it was collected on (not collected yet: the day it was ordered).'],
      };
    },
  },
  {
    id: 'tat-by-test',
    name: 'Turnaround Time by Test',
    type: 'laboratory',
    description: 'Collection to verification per test: median and 90th percentile, against the test’s target.',
    needs: ['view_results'],
    aggregate: true,
    async build({ db, window }) {
      const tat = await turnaroundByTest(db, window);
      const rows = tat.tests
        .map((t) => ({
          test_id: t.test_id,
          test_name: t.test_name,
          results: t.results,
          median_minutes: minutesRounded(t.median),
          p90_minutes: minutesRounded(t.p90),
          target_minutes: t.target_minutes,
          over_target: t.over_target,
        }))
        .sort((a, b) => a.test_name.localeCompare(b.test_name));
      return {
        columns: [
          col('test_id', 'Test ID', 'number'),
          col('test_name', 'Test'),
          col('results', 'Verified results', 'number'),
          col('median_minutes', 'Median (min)', 'number'),
          col('p90_minutes', '90th percentile (min)', 'number'),
          col('target_minutes', 'Target (min)', 'number'),
          col('over_target', 'Over target', 'number'),
        ],
        rows,
        totals: {
          test_name: 'All tests',
          results: tat.all.results,
          median_minutes: minutesRounded(tat.all.median),
          p90_minutes: minutesRounded(tat.all.p90),
        },
        chart: chart(
          'Median turnaround per test (minutes)',
          'Test',
          'Minutes',
          'number',
          rows.map((r) => ({ label: r.test_name, value: r.median_minutes ?? 0 })),
        ),
        notes: [
          'From sample collection to verification of the result, for verified results of samples collected in the period. Percentiles interpolate between neighbouring values (as PERCENTILE.INC).',
          TURNAROUND_TARGET_DEFINITION,
        ],
      };
    },
  },
  {
    id: 'rejections',
    name: 'Sample Rejections',
    type: 'laboratory',
    description: 'Samples rejected in the period by reason, and the rejection rate.',
    needs: ['view_samples'],
    aggregate: true,
    async build({ db, window }) {
      const { samples, reasons } = await rejectionCounts(db, window);
      const rows = reasons
        .map((r) => ({ reason: r.reason, rejected: r.n, percent_of_samples: pct(r.n, samples) }))
        .sort((a, b) => b.rejected - a.rejected || a.reason.localeCompare(b.reason));
      const rejected = rows.reduce((a, r) => a + r.rejected, 0);
      return {
        columns: [
          col('reason', 'Reason'),
          col('rejected', 'Rejected', 'number'),
          col('percent_of_samples', '% of samples', 'percent'),
        ],
        rows,
        totals: { reason: 'Total', samples, rejected, percent_of_samples: pct(rejected, samples) },
        chart: chart(
          'Rejections by reason',
          'Reason',
          'Samples',
          'number',
          rows.map((r) => ({ label: r.reason, value: r.rejected })),
        ),
        notes: [
          'Rate = rejected samples / all samples of the period (collected in it, or ordered in it if never collected).',
        ],
      };
    },
  },
  {
    id: 'critical-values',
    name: 'Critical Values',
    type: 'laboratory',
    description: 'Critical results entered in the period and how fast the call was logged.',
    needs: ['view_results', 'view_patients'],
    aggregate: false,
    async build({ db, window, page }) {
      const minutesToCall = (entered: string | null, called: string | null) =>
        called && entered ? Math.round((Date.parse(called) - Date.parse(entered)) / 60_000) : null;
      // The figures from every critical result's entry and first call; the rows (each joined to its
      // sample, patient and test): all, or only the page asked for.
      const [times, results] = await Promise.all([criticalCallTimes(db, window), criticalResults(db, window, page)]);
      const rows = results.map((r) => ({
        result_id: Number(r.id),
        sample_code: r.sample_code,
        patient_code: r.patient_code,
        test_name: r.test_name,
        value: [r.result_value, r.unit].filter(Boolean).join(' '),
        entered_at: r.entered_at,
        called_at: r.called_at,
        minutes_to_call: minutesToCall(r.entered_at, r.called_at),
      }));
      const minutes = times.map((t) => minutesToCall(t.entered_at, t.called_at));
      const called = minutes.filter((m) => m !== null).sort((a, b) => a - b);
      const buckets = new Map<string, number>(
        ['≤ 30 min', '31-60 min', 'Over 60 min', 'Not called'].map((k) => [k, 0]),
      );
      for (const m of minutes) {
        const k = m === null ? 'Not called' : m <= 30 ? '≤ 30 min' : m <= 60 ? '31-60 min' : 'Over 60 min';
        buckets.set(k, buckets.get(k)! + 1);
      }
      return {
        columns: [
          col('result_id', 'Result ID', 'number'),
          col('sample_code', 'Sample ID'),
          col('patient_code', 'Patient ID'),
          col('test_name', 'Test'),
          col('value', 'Value'),
          col('entered_at', 'Entered', 'datetime'),
          col('called_at', 'Called', 'datetime'),
          col('minutes_to_call', 'Minutes to call', 'number'),
        ],
        rows,
        rowCount: times.length,
        totals: {
          test_name: 'Total',
          critical: times.length,
          called: called.length,
          not_called: times.length - called.length,
          median_minutes_to_call: minutesRounded(percentile(called, 0.5)),
        },
        chart: chart(
          'Time to call',
          'Time from entry to call',
          'Results',
          'number',
          [...buckets].map(([label, value]) => ({ label, value })),
        ),
        notes: ['Time from entry of the value to the first logged call.'],
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
      const sum = (k: 'referrals' | 'patients' | 'revenue' | 'collected') =>
        Math.round(rows.reduce((a, r) => a + r[k] * 100, 0)) / 100;
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
        totals: {
          doctor_name: 'Total',
          referrals: sum('referrals'),
          revenue: sum('revenue'),
          collected: sum('collected'),
        },
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

export const builtInReport = (id: string) => BUILT_IN_REPORTS.find((r) => r.id === id);
