import type { Db } from '../db/connection.js';
import { organizationTimezone } from '../settings/service.js';
import { addDays, localDate } from '../../shared/time.js';
import { DEPARTMENTS, departmentOf, type LabReportAnalytics } from '../../shared/schemas/lab-reports.js';
import { dayRange } from './service.js';
import { enteredBetween, recentActivity, reportedBetween, samplesBetween, verifiedBetween } from './repository.js';

/** The value at fraction q of sorted numbers (nearest rank); null when there are none. */
export function percentile(sorted: number[], q: number): number | null {
  if (!sorted.length) return null;
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

const hours = (fromIso: string, toIso: string) => (Date.parse(toIso) - Date.parse(fromIso)) / 3_600_000;
const round1 = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
const pct = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : null);

/**
 * Report Analytics and Quality Metrics over the last `days` lab days (today included), and the
 * recent activity of Result Validation. Every figure is counted from rows (docs/decisions.md).
 */
export async function labReportAnalytics(db: Db, organizationId: number, days: number): Promise<LabReportAnalytics> {
  const tz = await organizationTimezone(db, organizationId);
  const to = localDate(tz);
  const from = addDays(to, -(days - 1));
  const { fromUtc, toUtc } = dayRange(tz, from, to);
  const [samples, reported, verified, entered, recent] = await Promise.all([
    samplesBetween(db, organizationId, fromUtc, toUtc),
    reportedBetween(db, organizationId, fromUtc, toUtc),
    verifiedBetween(db, organizationId, fromUtc, toUtc),
    enteredBetween(db, organizationId, fromUtc, toUtc),
    recentActivity(db, organizationId, 10),
  ]);

  const perDay = new Map<string, { registered: number; completed: number }>();
  for (let d = from; d <= to; d = addDays(d, 1)) perDay.set(d, { registered: 0, completed: 0 });
  for (const s of samples) {
    const day = perDay.get(localDate(tz, new Date(s.at)));
    if (day) day.registered += 1;
  }
  for (const r of reported) {
    const day = perDay.get(localDate(tz, new Date(r.reported_at!)));
    if (day) day.completed += 1;
  }

  const tat = reported
    .filter((r) => r.collection_date && r.reported_at)
    .map((r) => hours(r.collection_date!, r.reported_at!))
    .sort((a, b) => a - b);

  const byDept = new Map<string, number[]>();
  for (const v of verified) {
    if (!v.collection_date || !v.verified_at) continue;
    const d = departmentOf(v.category);
    byDept.set(d, [...(byDept.get(d) ?? []), hours(v.collection_date, v.verified_at)]);
  }

  const enteredResults = entered.filter(
    (e) => e.status === 'completed' || e.status === 'verified' || e.status === 'rejected',
  );
  const criticals = entered.filter((e) => e.is_critical === 1 && (e.status === 'completed' || e.status === 'verified'));
  const callMinutes = criticals
    .filter((c) => c.called_at && c.entered_at)
    .map((c) => (Date.parse(c.called_at!) - Date.parse(c.entered_at!)) / 60_000)
    .sort((a, b) => a - b);
  const rejected = samples.filter((s) => s.status === 'rejected').length;
  const amended = verified.filter((v) => v.amended === 1).length;
  const sentBack = entered.filter((e) => e.status === 'rejected').length;

  return {
    from,
    to,
    per_day: [...perDay].map(([date, v]) => ({ date, ...v })),
    turnaround: {
      reports: tat.length,
      median_hours: round1(percentile(tat, 0.5)),
      p90_hours: round1(percentile(tat, 0.9)),
    },
    turnaround_by_department: DEPARTMENTS.filter((d) => byDept.has(d)).map((d) => {
      const xs = byDept.get(d)!.sort((a, b) => a - b);
      return { department: d, results: xs.length, median_hours: round1(percentile(xs, 0.5)) };
    }),
    quality: {
      verified_results: verified.length,
      amended_results: amended,
      amendment_rate: pct(amended, verified.length),
      samples: samples.length,
      rejected_samples: rejected,
      rejection_rate: pct(rejected, samples.length),
      entered_results: enteredResults.length,
      sent_back_results: sentBack,
      critical_values: criticals.length,
      critical_called: criticals.filter((c) => c.called_at).length,
      critical_call_median_minutes: round1(percentile(callMinutes, 0.5)),
    },
    recent: recent.map((r) => ({ ...r })),
  };
}
