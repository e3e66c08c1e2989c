import { describe, expect, it } from 'vitest';
import type { ReportChart } from '../../shared/schemas/reports.js';
import type { ReportResult } from '../../shared/schemas/reports.js';
import { DEFAULT_LAB_FORMAT } from '../../shared/time.js';
import { pdfText } from '../../../test/helpers.js';
import { chartPoints, reportPdf } from './files.js';

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

  it('a long category name stays on its bar, cut with an ellipsis, instead of wrapping onto the next', async () => {
    const names = ['Mean Corpuscular Haemoglobin Concentration (MCHC)', 'VDRL'];
    const r: ReportResult = {
      id: 'tat-by-test',
      title: 'Turnaround Time by Test',
      type: 'laboratory',
      from: '2026-10-01',
      to: '2026-10-31',
      generated_at: '2026-11-01T00:00:00.000Z',
      columns: [{ key: 'test_name', label: 'Test', kind: 'text' }],
      rows: names.map((test_name) => ({ test_name })),
      row_count: 2,
      page: null,
      totals: null,
      chart: {
        ...chart('bar', [180, 170]),
        title: 'Median turnaround per test (minutes)',
        points: names.map((label, i) => ({ label, value: 180 - i * 10 })),
      },
      notes: [],
    };
    const text = pdfText(Buffer.from((await reportPdf(r, { name: 'Lab', format: DEFAULT_LAB_FORMAT })).body));
    const start = text.indexOf('Median turnaround per test');
    const chartPart = text.slice(start, text.indexOf('Test', start));
    expect(chartPart).toMatch(/Mean Corpuscular Haemoglobin.*…\s+180/);
    expect(chartPart).not.toMatch(/\(MCHC\)/);
    expect(chartPart).toMatch(/VDRL\s+170/);
  });
});
