import { describe, expect, it } from 'vitest';
import type { ReportChart } from '../../shared/schemas/reports.js';
import { chartPoints } from './files.js';

const chart = (kind: 'bar' | 'line', values: number[]): ReportChart =>
  ({
    title: 't',
    label: 'l',
    value_label: 'v',
    value_kind: 'number',
    kind,
    points: values.map((value, i) => ({ label: `p${i}`, value })),
  }) as ReportChart;

describe('printed charts', () => {
  it('draw every point when they fit', () => {
    expect(chartPoints(chart('bar', [3, 1, 2]), 15)).toEqual({ points: chart('bar', [3, 1, 2]).points, note: null });
  });

  it('a bar chart of many categories keeps its highest, and says so', () => {
    const r = chartPoints(chart('bar', [5, 9, 1, 7, 3]), 3);
    expect(r.points.map((p) => p.label)).toEqual(['p1', 'p3', 'p0']);
    expect(r.note).toBe('The highest 3 of 5 shown; all are in the table.');
  });

  it('a series over time keeps its latest points in order', () => {
    const r = chartPoints(chart('line', [5, 9, 1, 7, 3]), 2);
    expect(r.points.map((p) => p.label)).toEqual(['p3', 'p4']);
    expect(r.note).toBe('The last 2 of 5 shown; all are in the table.');
  });
});
