import { TURNAROUND_TARGET_DEFINITION } from '../../shared/figures.js';
import { ageOn } from '../../shared/age.js';
import { workloadByTestSummed } from './summary.js';
import { turnaroundByTest } from './turnaround.js';
import {
  criticalCallTimes,
  criticalResults,
  patientDemographics,
  patientsRegistered,
  rejectionCounts,
} from './repository.js';

import type { BuiltInReport } from './builtin-kit.js';
import { col, pct, percentile, minutesRounded, chart, byDesc, sums } from './builtin-kit.js';

/** The built-in reports of the laboratory: patients registered, workload, turnaround, rejections, critical values. */
export const LAB_REPORTS: BuiltInReport[] = [
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
        totals: { test_name: 'Total', ...sums(rows, ['ordered', 'resulted', 'verified', 'rejected']) },
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
];
