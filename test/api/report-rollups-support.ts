import type { Db } from '../../src/core/db/connection.js';
import { addDays, localDate, startOfLocalDayUtc } from '../../src/shared/time.js';
import { organizationTimezone } from '../../src/core/settings/organization.js';

/** Report figures computed here straight from the rows, for report-rollups.test.ts to compare with. */

export /** Rows as sorted JSON, numeric text as numbers (PostgreSQL gives BIGINT sums as text). */
const sorted = <T>(rows: T[]) =>
  rows
    .map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v)))
    .sort();

/** Turnaround by test as the rows give it: whole minutes per test, PERCENTILE.INC, over target in milliseconds. */
export async function tatFromRows(d: Db, org: number, fromUtc: string, toUtc: string) {
  const rows = await d
    .selectFrom('test_results as r')
    .innerJoin('samples as s', 's.id', 'r.sample_id')
    .innerJoin('tests as t', 't.id', 'r.test_id')
    .select(['r.test_id', 's.collection_date', 'r.verified_at', 't.turnaround_hours'])
    .where('r.organization_id', '=', org)
    .where('r.status', '=', 'verified')
    .where('r.verified_at', 'is not', null)
    .where('s.collection_date', '>=', fromUtc)
    .where('s.collection_date', '<', toUtc)
    .execute();
  const inc = (xs: number[], q: number) => {
    if (xs.length === 0) return null;
    const v = [...xs].sort((a, b) => a - b);
    const i = (v.length - 1) * q;
    return v[Math.floor(i)]! + (v[Math.ceil(i)]! - v[Math.floor(i)]!) * (i - Math.floor(i));
  };
  const per = new Map<number, { minutes: number[]; over: number; hours: number | null }>();
  const all: number[] = [];
  for (const r of rows) {
    const ms = Date.parse(r.verified_at!) - Date.parse(r.collection_date!);
    const minutes = Math.sign(ms) * Math.round(Math.abs(ms) / 60_000);
    const hours = r.turnaround_hours === null ? null : Number(r.turnaround_hours);
    const e = per.get(Number(r.test_id)) ?? { minutes: [], over: 0, hours };
    e.minutes.push(minutes);
    if (hours !== null && ms > hours * 3_600_000) e.over += 1;
    per.set(Number(r.test_id), e);
    all.push(minutes);
  }
  return {
    all: { results: all.length, median: inc(all, 0.5), p90: inc(all, 0.9) },
    tests: [...per]
      .map(([id, e]) => ({
        test_id: id,
        results: e.minutes.length,
        median: inc(e.minutes, 0.5),
        p90: inc(e.minutes, 0.9),
        over_target: e.hours === null ? null : e.over,
      }))
      .sort((a, b) => a.test_id - b.test_id),
  };
}

/** The Analytics figures of the `days` lab days to NOW as the rows give them. */
export async function analyticsFromRows(d: Db, org: number, days: number, now: Date) {
  const tz = await organizationTimezone(d, org);
  const to = localDate(tz, now);
  const from = addDays(to, -(days - 1));
  const fromUtc = startOfLocalDayUtc(tz, from).toISOString();
  const toUtc = startOfLocalDayUtc(tz, addDays(to, 1)).toISOString();
  const daily = new Map<string, { samples_collected: number; results_verified: number; paise: number }>();
  for (let x = from; x <= to; x = addDays(x, 1)) daily.set(x, { samples_collected: 0, results_verified: 0, paise: 0 });
  const dayOf = (iso: string) => daily.get(localDate(tz, new Date(iso)))!;
  const samples = await d
    .selectFrom('samples')
    .select(['id', 'collection_date', 'status'])
    .where('organization_id', '=', org)
    .where('collection_date', '>=', fromUtc)
    .where('collection_date', '<', toUtc)
    .execute();
  for (const s of samples) dayOf(s.collection_date!).samples_collected += 1;
  const verified = await d
    .selectFrom('test_results as r')
    .leftJoin('samples as s', 's.id', 'r.sample_id')
    .select(['r.verified_at', 's.collection_date'])
    .where('r.organization_id', '=', org)
    .where('r.status', '=', 'verified')
    .where('r.verified_at', '>=', fromUtc)
    .where('r.verified_at', '<', toUtc)
    .execute();
  const minutes: number[] = [];
  for (const r of verified) {
    dayOf(r.verified_at!).results_verified += 1;
    if (r.collection_date) {
      const ms = Date.parse(r.verified_at!) - Date.parse(r.collection_date);
      minutes.push(Math.sign(ms) * Math.round(Math.abs(ms) / 60_000));
    }
  }
  minutes.sort((a, b) => a - b);
  const rank = (p: number) =>
    minutes.length ? minutes[Math.max(1, Math.ceil((p / 100) * minutes.length)) - 1]! : null;
  const lines = await d
    .selectFrom('bill_items as i')
    .innerJoin('bills as b', 'b.id', 'i.bill_id')
    .leftJoin('tests as t', 't.id', 'i.test_id')
    .select(['b.created_at', 'i.total_paise', 't.category'])
    .where('b.organization_id', '=', org)
    .where('b.cancelled_at', 'is', null)
    .where('b.created_at', '>=', fromUtc)
    .where('b.created_at', '<', toUtc)
    .execute();
  const categories = new Map<string, { lines: number; paise: number }>();
  for (const l of lines) {
    dayOf(l.created_at).paise += Number(l.total_paise);
    const c = categories.get(l.category?.trim() || 'Uncategorised') ?? { lines: 0, paise: 0 };
    c.lines += 1;
    c.paise += Number(l.total_paise);
    categories.set(l.category?.trim() || 'Uncategorised', c);
  }
  const ordered = await d
    .selectFrom('sample_tests as st')
    .innerJoin('samples as s', 's.id', 'st.sample_id')
    .select('st.test_id')
    .where('s.organization_id', '=', org)
    .where('s.collection_date', '>=', fromUtc)
    .where('s.collection_date', '<', toUtc)
    .execute();
  const perTest = new Map<number, number>();
  for (const o of ordered) perTest.set(Number(o.test_id), (perTest.get(Number(o.test_id)) ?? 0) + 1);
  return {
    daily: [...daily].map(([date, x]) => ({
      date,
      samples_collected: x.samples_collected,
      results_verified: x.results_verified,
      revenue: x.paise / 100,
    })),
    rejected: samples.filter((s) => s.status === 'rejected').length,
    tat: { results: minutes.length, median: rank(50), p90: rank(90) },
    categories: sorted([...categories].map(([category, c]) => ({ category, lines: c.lines, revenue: c.paise / 100 }))),
    tests: sorted([...perTest].map(([test_id, count]) => ({ test_id, count }))),
  };
}
