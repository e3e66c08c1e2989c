import { useId, useState, type ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Table2, BarChart3 } from 'lucide-react';
import type { AnalyticsChartType } from '@shared/schemas/analytics';
import { Button, Card, CardBody, CardHeader, EmptyState } from '@/components';

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

export interface ChartCardProps<Row extends Record<string, string | number>> {
  title: string;
  description?: ReactNode;
  type: AnalyticsChartType;
  rows: Row[];
  /** The row field the categories (x axis, pie slices) come from, and its column heading. */
  category: { key: keyof Row & string; label: string; format?: (v: string) => string };
  /** The figures; a pie draws the first. */
  series: ChartSeries[];
  format?: (v: number) => string;
  /** The value axis' ticks, when the full figure is too wide for them (money); default `format`. */
  axisFormat?: (v: number) => string;
  /** Counts: whole-number axis ticks. */
  integers?: boolean;
  empty: string;
}

/** Slice colours of a pie: distinct, AA against white for the labels beside them. */
const SLICES = ['#2563eb', '#059669', '#d97706', '#7c3aed', '#dc2626', '#0891b2', '#4d7c0f', '#be185d', '#475569'];

/**
 * One chart (bar, line or pie, recharts with its keyboard layer) with its data as a table: a toggle
 * shows the table instead of the drawing, and the table is always there for screen readers.
 */
export function ChartCard<Row extends Record<string, string | number>>({
  title,
  description,
  type,
  rows,
  category,
  series,
  format = (v) => String(v),
  axisFormat = format,
  integers = false,
  empty,
}: ChartCardProps<Row>) {
  const [asTable, setAsTable] = useState(false);
  const captionId = useId();
  const cat = (v: unknown) => (category.format ? category.format(String(v)) : String(v));
  const hasData = rows.some((r) => series.some((s) => Number(r[s.key]) !== 0));

  const table = (
    <div className={asTable ? 'overflow-x-auto' : 'sr-only'}>
      <table className="w-full text-left text-sm" aria-describedby={captionId}>
        <caption className="sr-only">{title}: data</caption>
        <thead className="border-b border-slate-200 text-[13px] text-slate-600">
          <tr>
            <th scope="col" className="px-2 py-1.5 font-medium">
              {category.label}
            </th>
            {series.map((s) => (
              <th key={s.key} scope="col" className="px-2 py-1.5 text-right font-medium">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={String(r[category.key])} className="border-b border-slate-100">
              <th scope="row" className="px-2 py-1.5 font-normal">
                {cat(r[category.key])}
              </th>
              {series.map((s) => (
                <td key={s.key} className="px-2 py-1.5 text-right tabular-nums">
                  {format(Number(r[s.key]))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );

  // What the line and the bar chart draw alike: grid, axes, tooltip, and a legend for two series or more.
  const axes = (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
      <XAxis dataKey={category.key as string} tickFormatter={cat} fontSize={12} />
      <YAxis allowDecimals={!integers} fontSize={12} tickFormatter={(v: number) => axisFormat(v)} width={72} />
      <Tooltip formatter={(v) => format(Number(v))} labelFormatter={(l) => cat(l)} />
      {series.length > 1 && <Legend />}
    </>
  );

  const chart =
    type === 'pie' ? (
      <PieChart>
        <Pie
          data={rows.filter((r) => Number(r[series[0]!.key]) !== 0)}
          dataKey={series[0]!.key}
          nameKey={category.key}
          outerRadius="75%"
          isAnimationActive={false}
          label={(p: { name?: unknown }) => cat(p.name)}
        >
          {rows
            .filter((r) => Number(r[series[0]!.key]) !== 0)
            .map((r, i) => (
              <Cell key={String(r[category.key])} fill={SLICES[i % SLICES.length]} />
            ))}
        </Pie>
        <Tooltip formatter={(v) => format(Number(v))} labelFormatter={(l) => cat(l)} />
      </PieChart>
    ) : type === 'line' ? (
      <LineChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        {axes}
        {series.map((s) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            strokeWidth={2}
            dot={rows.length <= 31}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    ) : (
      <BarChart data={rows} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        {axes}
        {series.map((s) => (
          <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} isAnimationActive={false} />
        ))}
      </BarChart>
    );

  return (
    <Card className="min-w-0">
      <CardHeader
        title={title}
        description={description}
        actions={
          <Button
            variant="outline"
            size="sm"
            aria-pressed={asTable}
            aria-label={asTable ? `Show ${title} as a chart` : `Show ${title} as a table`}
            onClick={() => setAsTable((t) => !t)}
          >
            {asTable ? <BarChart3 /> : <Table2 />}
            {asTable ? 'Chart' : 'Table'}
          </Button>
        }
      />
      <CardBody>
        <p id={captionId} className="sr-only">
          {`${title}, ${type} chart of ${rows.length} ${category.label.toLowerCase()} rows; the table below has every figure.`}
        </p>
        {!hasData ? (
          <EmptyState title={empty} />
        ) : (
          <>
            {!asTable && (
              <figure className="h-64 w-full" aria-label={`${title} (${type} chart)`} data-chart-type={type}>
                <ResponsiveContainer width="100%" height="100%">
                  {chart}
                </ResponsiveContainer>
              </figure>
            )}
            {table}
          </>
        )}
      </CardBody>
    </Card>
  );
}
