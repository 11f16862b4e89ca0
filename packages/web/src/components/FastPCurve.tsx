// fast_p as a curve: p on the x axis (0, 0.5, 1, 1.5, 2, 5), the share of problems on the y axis; several sweeps
// overlaid for a comparison. Plain SVG, with the figures also in a table for screen readers.
// Drawn at the width it is given (not a scaled viewBox), so its 11 px labels stay 11 px on a phone.
import { FAST_P_KEYS, type FastP } from '@kernelforge/sdk';
import { useWidth } from '../hooks/useWidth';
import { type Column, DataTable } from './DataTable';

const COLORS = ['#4f46e5', '#e11d48', '#059669', '#d97706'];
const H = 220;
const PAD = { left: 44, right: 16, top: 12, bottom: 36 };

export function FastPCurve({
  series,
  title = 'fast_p curve',
}: {
  series: { label: string; fast_p: FastP }[];
  title?: string;
}) {
  const [ref, measured] = useWidth<HTMLElement>(420);
  const W = Math.min(Math.max(measured, 300), 576);
  // The thresholds are spaced evenly (5 would squash the rest); the labels say which p each point is.
  const x = (i: number) => PAD.left + (i * (W - PAD.left - PAD.right)) / (FAST_P_KEYS.length - 1);
  const y = (share: number) => PAD.top + (1 - share) * (H - PAD.top - PAD.bottom);
  return (
    <figure className="min-w-0" ref={ref}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={title}
        className="block text-slate-500 dark:text-slate-400"
      >
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} stroke="currentColor" strokeOpacity={0.2} />
            <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end" fontSize="11" fill="currentColor">
              {Math.round(t * 100)}%
            </text>
          </g>
        ))}
        {FAST_P_KEYS.map((p, i) => (
          <text key={p} x={x(i)} y={H - PAD.bottom + 16} textAnchor="middle" fontSize="11" fill="currentColor">
            {p}
          </text>
        ))}
        <text x={(W + PAD.left) / 2} y={H - 4} textAnchor="middle" fontSize="11" fill="currentColor">
          p (faster than the reference by more than p times)
        </text>
        {series.map((s, k) => (
          <g key={s.label} stroke={COLORS[k % COLORS.length]} fill={COLORS[k % COLORS.length]}>
            <polyline
              fill="none"
              strokeWidth={2}
              points={FAST_P_KEYS.map((p, i) => `${x(i)},${y(s.fast_p[p])}`).join(' ')}
            />
            {FAST_P_KEYS.map((p, i) => (
              <circle key={p} cx={x(i)} cy={y(s.fast_p[p])} r={3}>
                <title>{`${s.label}: fast_${p} = ${(s.fast_p[p] * 100).toFixed(1)}%`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      {series.length > 1 ? (
        <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-600 dark:text-slate-400">
          {series.map((s, k) => (
            <span key={s.label} className="inline-flex items-center gap-1">
              <span
                aria-hidden="true"
                className="inline-block size-2.5 rounded-full"
                style={{ background: COLORS[k % COLORS.length] }}
              />
              {s.label}
            </span>
          ))}
        </figcaption>
      ) : null}
    </figure>
  );
}

/** The fast_p figures as a table (one row per series; a series' `rule` says which counting it is). */
export function FastPTable({
  series,
  firstHeader = 'Sweep',
}: {
  series: { label: string; fast_p: FastP; rule?: string }[];
  firstHeader?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <DataTable
        variant="compact"
        classes={{ th: 'py-1 pr-4 font-medium', cell: 'py-1 pr-4' }}
        ariaLabel="fast_p"
        rows={series}
        rowKey={(s) => s.label}
        rowProps={(s) => ({ 'data-rule': s.rule ?? 'interval' })}
        columns={[
          { id: 'label', header: firstHeader, cell: (s) => s.label },
          ...FAST_P_KEYS.map(
            (p): Column<(typeof series)[number]> => ({
              id: p,
              header: `fast_${p}`,
              align: 'right',
              cellProps: () => ({ 'data-fast-p': p }),
              cell: (s) => `${(s.fast_p[p] * 100).toFixed(1)}%`,
            }),
          ),
        ]}
      />
    </div>
  );
}
