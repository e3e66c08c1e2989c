import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReportChart as Chart } from '@shared/schemas/reports';
import { Button } from '@/components';
import { formatCount, formatMoney, formatMoneyShort } from '@/lib/format';

/**
 * A report's chart (recharts: SVG with its labels in the DOM and a keyboard layer) and, one click
 * away, the same points as a table. This module is loaded only by the report screens.
 */
export function valueText(v: number, kind: Chart['value_kind']): string {
  if (kind === 'money') return formatMoney(Math.round(v * 100));
  if (kind === 'percent') return `${v.toFixed(2)}%`;
  return formatCount(v);
}

/** Bars a chart draws: more than this (98 tests) overlap into an unreadable block. */
export const MAX_BARS = 15;

/**
 * A category label on one line of the 130 px axis: recharts wraps long ones, and the wrapped labels
 * of 15 bars overlapped. The tooltip and the table view have the whole name.
 */
function CategoryTick({ x, y, payload }: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) {
  const label = String(payload?.value ?? '');
  return (
    <text x={x} y={y} dy={4} textAnchor="end" fontSize={11} fill="#475569">
      <title>{label}</title>
      {label.length > 19 ? `${label.slice(0, 18).trimEnd()}…` : label}
    </text>
  );
}

export default function ReportChart({ chart }: { chart: Chart }) {
  const [asTable, setAsTable] = useState(false);
  const all = chart.points.map((p) => ({ label: p.label, value: p.value }));
  // A bar chart of many categories shows the highest; its table view lists every point.
  const cut = chart.kind === 'bar' && all.length > MAX_BARS;
  const bars = cut ? [...all].sort((a, b) => b.value - a.value).slice(0, MAX_BARS) : all;
  const fmt = (v: number) => valueText(v, chart.value_kind);
  const short = (v: number) => (chart.value_kind === 'money' ? formatMoneyShort(v) : formatCount(v));
  const tall = chart.kind === 'bar' && bars.length > 8;
  return (
    <figure className="grid gap-2" aria-label={chart.title}>
      <div className="flex items-center justify-between gap-2">
        <figcaption className="text-[13px] font-medium text-slate-700">{chart.title}</figcaption>
        <Button size="sm" variant="outline" onClick={() => setAsTable((t) => !t)} aria-pressed={asTable}>
          {asTable ? 'Show chart' : 'Show as table'}
        </Button>
      </div>
      {cut && !asTable && (
        <p className="text-[12px] text-slate-500">
          The {MAX_BARS} highest of {formatCount(all.length)}; Show as table lists all.
        </p>
      )}
      {all.length === 0 ? (
        <p className="text-[13px] text-slate-500">Nothing to chart in this period.</p>
      ) : asTable ? (
        <table className="w-full text-[13px]" aria-label={`${chart.title} (data)`}>
          <thead className="bg-slate-50 text-left text-slate-600">
            <tr>
              <th className="px-3 py-1.5 font-medium">{chart.label}</th>
              <th className="px-3 py-1.5 text-right font-medium">{chart.value_label}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {all.map((p) => (
              <tr key={p.label}>
                <td className="px-3 py-1.5">{p.label}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{fmt(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className={tall ? 'h-96' : 'h-64'} data-testid="report-chart">
          <ResponsiveContainer width="100%" height="100%">
            {chart.kind === 'line' ? (
              <LineChart data={all} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} accessibilityLayer>
                <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                <XAxis dataKey="label" tick={{ fontSize: 11 }} minTickGap={16} />
                <YAxis tick={{ fontSize: 11 }} tickFormatter={short} width={64} />
                <Tooltip formatter={(v) => [fmt(Number(v)), chart.value_label]} />
                <Line
                  isAnimationActive={false}
                  type="monotone"
                  dataKey="value"
                  name={chart.value_label}
                  stroke="#2563eb"
                  strokeWidth={2}
                  dot={all.length <= 31}
                />
              </LineChart>
            ) : (
              <BarChart
                data={bars}
                layout="vertical"
                margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
                accessibilityLayer
              >
                <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" horizontal={false} />
                <XAxis type="number" tick={{ fontSize: 11 }} tickFormatter={short} />
                <YAxis type="category" dataKey="label" tick={CategoryTick} width={130} interval={0} />
                <Tooltip formatter={(v) => [fmt(Number(v)), chart.value_label]} />
                <Bar
                  isAnimationActive={false}
                  maxBarSize={28}
                  dataKey="value"
                  name={chart.value_label}
                  fill="#2563eb"
                  radius={[0, 3, 3, 0]}
                />
              </BarChart>
            )}
          </ResponsiveContainer>
        </div>
      )}
    </figure>
  );
}
