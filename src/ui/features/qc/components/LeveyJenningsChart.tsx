import { useLayoutEffect, useRef, useState } from 'react';
import type { QcMaterial, QcRun } from '@shared/schemas/qc';
import { formatDate, formatDateTime, useLabFormat } from '@/lib/format';
import { formatQcValue, shortDate } from '../qcText';

const HEIGHT = 300;
const PAD = { top: 16, right: 44, bottom: 34, left: 64 };

/** Line styles of the control limits: the mean solid, 1 SD faint, 2 SD warning, 3 SD rejection. */
const LIMITS = [
  { sd: 3, stroke: '#dc2626', dash: '6 4', label: '3SD' },
  { sd: 2, stroke: '#d97706', dash: '6 4', label: '2SD' },
  { sd: 1, stroke: '#94a3b8', dash: '2 4', label: '1SD' },
] as const;

const POINT: Record<QcRun['status'], string> = { passed: '#16a34a', warning: '#d97706', failed: '#dc2626' };

/** The chart follows its container's width, so labels keep their size on a phone and on a desktop. */
function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(640);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(280, Math.floor(el.getBoundingClientRect().width)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width] as const;
}

export interface LeveyJenningsChartProps {
  material: QcMaterial;
  /** Newest first, as the API lists them. */
  runs: QcRun[];
}

/**
 * Levey-Jennings chart of one control material (one lot of one level): each run's value in order,
 * against horizontal lines at the target mean and +-1, 2 and 3 SD; points coloured by the run's
 * Westgard outcome. Values far outside 3 SD widen the scale rather than leave the chart.
 */
export function LeveyJenningsChart({ material, runs }: LeveyJenningsChartProps) {
  const lab = useLabFormat();
  const [box, width] = useWidth<HTMLDivElement>();
  const series = [...runs].reverse();
  const { target_mean: mean, target_sd: sd } = material;

  const maxZ = Math.max(3.5, ...series.map((r) => Math.abs(r.z_score) + 0.3));
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const y = (z: number) => PAD.top + plotH / 2 - (z / maxZ) * (plotH / 2);
  const step = series.length > 1 ? plotW / (series.length - 1) : 0;
  const x = (i: number) => (series.length > 1 ? PAD.left + i * step : PAD.left + plotW / 2);
  const points = series.map((r, i) => ({ r, cx: x(i), cy: y(r.z_score) }));

  // About one date label per 90 px, always the first and the last run; a day already labelled is not repeated.
  const every = Math.max(1, Math.ceil(series.length / Math.max(1, Math.floor(plotW / 90))));
  const label = (r: QcRun) => shortDate(formatDate(r.performed_at, lab), lab.dateFormat);
  const lastPoint = points.at(-1);
  const shown: { r: QcRun; cx: number; text: string }[] = [];
  points.forEach((p, i) => {
    if (i % every !== 0 && p !== lastPoint) return;
    const text = label(p.r);
    const prev = shown.at(-1);
    if (prev && prev.text === text) return;
    // Keep the last run's date: drop an earlier label that would collide with it.
    if (p === lastPoint && prev && p.cx - prev.cx < 60) shown.pop();
    else if (prev && p.cx - prev.cx < 60) return;
    shown.push({ r: p.r, cx: p.cx, text });
  });

  const title = `Levey-Jennings chart of ${material.control_id} (${material.test_name}, lot ${material.lot_number}): ${series.length} run${series.length === 1 ? '' : 's'}`;
  const unit = material.unit ? ` ${material.unit}` : '';

  return (
    <figure className="min-w-0">
      <div ref={box} className="w-full">
        <svg width={width} height={HEIGHT} role="img" aria-label={title} className="block text-slate-600">
          <rect x={PAD.left} y={PAD.top} width={plotW} height={plotH} fill="#f8fafc" />
          {LIMITS.flatMap((l) =>
            [l.sd, -l.sd].map((z) => (
              <g key={`${l.label}${z}`}>
                <line
                  x1={PAD.left}
                  x2={PAD.left + plotW}
                  y1={y(z)}
                  y2={y(z)}
                  stroke={l.stroke}
                  strokeDasharray={l.dash}
                />
                <text x={PAD.left - 6} y={y(z) + 4} textAnchor="end" fontSize={11} fill="currentColor">
                  {formatQcValue(mean + z * sd)}
                </text>
                <text x={PAD.left + plotW + 6} y={y(z) + 4} fontSize={11} fill={l.stroke}>
                  {z > 0 ? '+' : '−'}
                  {l.label}
                </text>
              </g>
            )),
          )}
          <line x1={PAD.left} x2={PAD.left + plotW} y1={y(0)} y2={y(0)} stroke="#0f172a" strokeWidth={1.25} />
          <text x={PAD.left - 6} y={y(0) + 4} textAnchor="end" fontSize={11} fontWeight={600} fill="#0f172a">
            {formatQcValue(mean)}
          </text>
          <text x={PAD.left + plotW + 6} y={y(0) + 4} fontSize={11} fontWeight={600} fill="#0f172a">
            Mean
          </text>

          {points.length > 1 && (
            <polyline
              points={points.map((p) => `${p.cx},${p.cy}`).join(' ')}
              fill="none"
              stroke="#475569"
              strokeWidth={1.5}
              strokeLinejoin="round"
            />
          )}
          {points.map(({ r, cx, cy }) => (
            <circle key={r.id} cx={cx} cy={cy} r={4.5} fill={POINT[r.status]} stroke="#fff" strokeWidth={1.5}>
              <title>
                {`${formatDateTime(r.performed_at, lab)}: ${formatQcValue(r.value)}${unit} (z ${r.z_score.toFixed(2)}), ${r.status}${r.rules.length ? ` — ${r.rules.join(', ')}` : ''}`}
              </title>
            </circle>
          ))}
          {shown.map((t) => (
            <text
              key={t.r.id}
              x={t.cx}
              y={HEIGHT - PAD.bottom + 18}
              textAnchor="middle"
              fontSize={11}
              fill="currentColor"
            >
              {t.text}
            </text>
          ))}
        </svg>
      </div>
      <figcaption className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-600">
        <Legend color={POINT.passed} label="Passed" />
        <Legend color={POINT.warning} label="Warning (1-2s)" />
        <Legend color={POINT.failed} label="Rejected" />
        <span>
          Target {formatQcValue(mean)} ± {formatQcValue(sd)}
          {unit}; runs in the order performed.
        </span>
      </figcaption>
    </figure>
  );
}

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <svg width="10" height="10" aria-hidden="true">
        <circle cx="5" cy="5" r="4.5" fill={color} />
      </svg>
      {label}
    </span>
  );
}
