import { BarChart3, PieChart, TrendingUp, Users } from 'lucide-react';
import type { RevenueAnalytics, RevenueDaily } from '@shared/schemas/revenue';
import { Card, CardBody, CardHeader, DateText, Money } from '@/components';
import { formatCount, formatMoney } from '@/lib/format';

const METHODS = [
  ['cash', 'Cash', 'bg-emerald-500'],
  ['card', 'Card', 'bg-sky-500'],
  ['upi', 'UPI', 'bg-violet-500'],
  ['bank_transfer', 'Bank transfer', 'bg-amber-500'],
  ['cheque', 'Cheque', 'bg-slate-500'],
  ['insurance', 'Insurance', 'bg-rose-500'],
] as const;

/** Net revenue per lab day as bars. */
export function Trends({ data }: { data: RevenueDaily }) {
  const max = Math.max(1, ...data.days.map((d) => Math.abs(d.total)));
  return (
    <Card className="min-w-0">
      <CardHeader icon={<BarChart3 />} title="Revenue Trends" description="Net revenue per lab day" />
      <div className="flex h-48 items-end gap-[2px] px-4 pt-4 pb-2" role="img" aria-label="Net revenue per day">
        {data.days.map((d) => (
          <div
            key={d.date}
            title={`${d.date}: ${formatMoney(Math.round(d.total * 100))}`}
            className={`min-w-[2px] flex-1 rounded-t ${d.total < 0 ? 'bg-red-400' : 'bg-primary-600'}`}
            style={{ height: `${Math.max(1, Math.round((Math.abs(d.total) / max) * 100))}%` }}
          />
        ))}
      </div>
      <div className="flex justify-between px-4 pb-3 text-[12px] text-slate-600">
        <DateText value={data.from} />
        <DateText value={data.to} />
      </div>
    </Card>
  );
}

/** Money received by payment method, with each one's share. */
export function Methods({ data }: { data: RevenueDaily }) {
  const received = METHODS.reduce((s, [k]) => s + data.totals[k], 0);
  return (
    <Card className="min-w-0">
      <CardHeader
        icon={<PieChart />}
        title="Payment Method Distribution"
        description="Money received in the period, before refunds"
      />
      <ul className="grid gap-3 p-4" aria-label="Payment method distribution">
        {METHODS.map(([k, label, color]) => {
          const v = data.totals[k];
          const pct = received ? Math.round((v / received) * 1000) / 10 : 0;
          return (
            <li key={k}>
              <div className="flex justify-between text-[13px]">
                <span className="font-medium text-slate-900">{label}</span>
                <span className="text-slate-600 tabular-nums">
                  <Money rupees={v} /> · {pct}%
                </span>
              </div>
              <div className="mt-1 h-2 rounded-full bg-slate-100" aria-hidden="true">
                <div className={`h-2 rounded-full ${color}`} style={{ width: `${pct}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** The forecast's two horizons, each shown as its own figure. */
const FORECASTS = [
  ['Next 7 days', 'next_7_days'],
  ['Next 30 days', 'next_30_days'],
] as const;

/** Revenue by test category and by referring doctor, and the forecast. */
export function Analytics({ data }: { data: RevenueAnalytics }) {
  return (
    <div className="grid gap-5 lg:grid-cols-3">
      <Card className="min-w-0">
        <CardHeader
          icon={<BarChart3 />}
          title="Revenue by Test Category"
          description="Billed on the period's bills (not cancelled)"
        />
        <Ranked
          rows={data.by_category.map((c) => ({
            key: c.category,
            label: c.category,
            amount: c.amount,
            note: `${formatCount(c.items)} ${c.items === 1 ? 'item' : 'items'}`,
          }))}
        />
      </Card>
      <Card className="min-w-0">
        <CardHeader icon={<Users />} title="Revenue by Referring Doctor" description="Billed on the period's bills" />
        <Ranked
          rows={data.by_doctor.map((d) => ({
            key: String(d.doctor_id),
            label: d.doctor_name,
            amount: d.amount,
            note: `${formatCount(d.bills)} ${d.bills === 1 ? 'bill' : 'bills'}`,
          }))}
        />
      </Card>
      <Card className="min-w-0">
        <CardHeader
          icon={<TrendingUp />}
          title="Revenue Forecast (projection)"
          description="How it is computed is written below"
        />
        <CardBody className="grid gap-3 text-[13px]">
          <div className="grid grid-cols-2 gap-3">
            {FORECASTS.map(([label, key]) => (
              <div key={key}>
                <p className="text-slate-600">{label}</p>
                <p className="text-lg font-semibold">
                  <Money rupees={data.forecast[key]} />
                </p>
              </div>
            ))}
          </div>
          <p className="text-slate-600">{data.forecast.method}</p>
        </CardBody>
      </Card>
    </div>
  );
}

function Ranked({ rows }: { rows: { key: string; label: string; amount: number; note: string }[] }) {
  if (!rows.length) return <CardBody className="text-[13px] text-slate-600">No bills in this period.</CardBody>;
  const max = Math.max(1, ...rows.map((r) => r.amount));
  return (
    <ul className="grid gap-3 p-4">
      {rows.slice(0, 8).map((r) => (
        <li key={r.key} className="min-w-0">
          <div className="flex justify-between gap-2 text-[13px]">
            <span className="truncate font-medium text-slate-900">{r.label}</span>
            <span className="shrink-0 text-slate-600 tabular-nums">
              <Money rupees={r.amount} /> · {r.note}
            </span>
          </div>
          <div className="mt-1 h-2 rounded-full bg-slate-100" aria-hidden="true">
            <div
              className="h-2 rounded-full bg-primary-600"
              style={{ width: `${Math.round((r.amount / max) * 100)}%` }}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
