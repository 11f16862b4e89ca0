// An SVG chart of each accepted attempt's time, the figure its best is chosen by (the lowest), on a log axis: each
// point with its 95% interval as an error bar, the baseline timed beside the best as a dashed line, the best circled;
// a point opens its attempt. An attempt whose verdict is not accepted has no time to draw. Text sits in the margins
// (tick values, attempt numbers, a legend above), never beside a point, and the chart is drawn at the width it is
// given, so its text stays at its real size on a phone.
import { type AttemptFigure, attemptFigure, figureText, type GenerationAttempt } from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { useWidth } from '../hooks/useWidth';
import { formatMs } from '../lib/format';
import { formatTimeTick, logScale, timeTicks } from '../lib/logScale';

const H = 260;
const PAD = { left: 60, right: 16, top: 40, bottom: 40 };
/** Points stay this far inside the plot's sides, clear of the tick labels and the edge. */
const INSET = 14;
/** About how wide one character of the chart's 12 px text is. */
const CHAR_PX = 7.5;

interface Point {
  id: string;
  n: number;
  figure: AttemptFigure;
  interval: readonly [number, number] | undefined;
}

function describe(p: Point): string {
  return `Attempt #${p.n}: ${figureText(p.figure)}`;
}

export function AttemptChart({
  attempts,
  bestId,
  sessionId,
}: {
  attempts: readonly GenerationAttempt[];
  bestId: string | undefined;
  sessionId?: string;
}) {
  const [ref, W] = useWidth<HTMLElement>(640);
  const [, navigate] = useLocation();
  const points: Point[] = attempts.flatMap((a) => {
    const figure = attemptFigure(a);
    if (!figure) return [];
    const ci = figure.time_interval;
    const interval = ci && ci[0] > 0 && ci[1] >= ci[0] ? ci : undefined;
    return [{ id: a.id, n: a.attempt_number, figure, interval }];
  });
  if (points.length === 0) {
    return (
      <p className="py-6 text-sm text-slate-500 dark:text-slate-400">
        No timed attempt yet: the chart fills in as attempts are accepted.
      </p>
    );
  }
  const best = points.find((p) => p.id === bestId);
  const baselineMs = best?.figure.baseline_ms;
  const lo = Math.min(
    baselineMs ?? Number.POSITIVE_INFINITY,
    ...points.map((p) => p.interval?.[0] ?? p.figure.time_ms),
  );
  const hi = Math.max(baselineMs ?? 0, ...points.map((p) => p.interval?.[1] ?? p.figure.time_ms));
  const plotH = H - PAD.top - PAD.bottom;
  // Ticks at least 20 px apart, so their 12 px text never overlaps.
  const ticks = timeTicks(lo, hi, Math.max(2, Math.floor(plotH / 20) + 1));
  const minT = ticks[0] ?? lo / 2;
  const maxT = ticks[ticks.length - 1] ?? hi * 2;
  const y = logScale(minT, maxT, PAD.top, H - PAD.bottom);
  const maxN = Math.max(...attempts.map((a) => a.attempt_number), 1);
  const plotW = Math.max(W - PAD.left - PAD.right, 40);
  const x = (n: number) => PAD.left + INSET + (maxN === 1 ? 0.5 : (n - 1) / (maxN - 1)) * (plotW - 2 * INSET);
  const path = points
    .map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.n).toFixed(1)},${y(p.figure.time_ms).toFixed(1)}`)
    .join(' ');
  // Attempt numbers on the x axis: every one when they fit, else every k-th.
  const labelPx = (String(maxN).length + 1) * CHAR_PX + 8;
  const every = Math.max(1, Math.ceil(maxN / Math.max(1, Math.floor((plotW - 2 * INSET) / labelPx) + 1)));
  const open = (id: string) => sessionId && navigate(`/kernels/${sessionId}/attempts/${id}`);
  const muted = 'fill-slate-500 dark:fill-slate-400';
  const bestLabel = best ? `best #${best.n} ${formatMs(best.figure.time_ms)}` : '';
  const baselineLabel = baselineMs !== undefined ? `its baseline ${formatMs(baselineMs)}` : '';
  const LEGEND_X = 8;
  const legendBaselineX = LEGEND_X + 18 + bestLabel.length * CHAR_PX + 16;
  return (
    <figure ref={ref}>
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Time of each accepted attempt, log axis, ${points.length} timed attempts`}
        className="block max-w-full text-xs"
      >
        {ticks.map((t) => (
          <g key={t} data-testid="chart-tick">
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(t)}
              y2={y(t)}
              className="stroke-slate-200 dark:stroke-slate-800"
            />
            <text x={PAD.left - 8} y={y(t) + 4} textAnchor="end" className={muted}>
              {formatTimeTick(t)}
            </text>
          </g>
        ))}
        {attempts
          .filter((a) => (a.attempt_number - 1) % every === 0)
          .map((a) => (
            <text
              key={a.id}
              x={x(a.attempt_number)}
              y={H - PAD.bottom + 18}
              textAnchor="middle"
              className={a.id === bestId ? 'fill-emerald-700 font-semibold dark:fill-emerald-400' : muted}
            >
              #{a.attempt_number}
            </text>
          ))}
        <text x={PAD.left + plotW / 2} y={H - 4} textAnchor="middle" className={muted}>
          attempt
        </text>
        {best && baselineMs !== undefined ? (
          <g data-testid="chart-baseline">
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(baselineMs)}
              y2={y(baselineMs)}
              strokeDasharray="6 4"
              className="stroke-amber-500"
              strokeWidth={1.5}
            />
            <line
              x1={legendBaselineX}
              x2={legendBaselineX + 22}
              y1={14}
              y2={14}
              strokeDasharray="6 4"
              className="stroke-amber-500"
              strokeWidth={1.5}
            />
            <text x={legendBaselineX + 28} y={18} className="fill-amber-700 dark:fill-amber-300">
              {baselineLabel}
            </text>
          </g>
        ) : null}
        <path d={path} fill="none" className="stroke-indigo-300 dark:stroke-indigo-700" strokeWidth={1.5} />
        {points.map((p) => (
          <g key={p.id}>
            {p.interval ? (
              <g data-testid="chart-error-bar" className="stroke-indigo-500" strokeWidth={1.5}>
                <line x1={x(p.n)} x2={x(p.n)} y1={y(p.interval[1])} y2={y(p.interval[0])} />
                <line x1={x(p.n) - 4} x2={x(p.n) + 4} y1={y(p.interval[1])} y2={y(p.interval[1])} />
                <line x1={x(p.n) - 4} x2={x(p.n) + 4} y1={y(p.interval[0])} y2={y(p.interval[0])} />
              </g>
            ) : null}
            <circle
              cx={x(p.n)}
              cy={y(p.figure.time_ms)}
              r={5}
              role="button"
              tabIndex={sessionId ? 0 : -1}
              aria-label={describe(p)}
              data-testid="chart-point"
              className={`fill-indigo-500 stroke-white dark:stroke-slate-900 ${sessionId ? 'cursor-pointer hover:fill-indigo-700' : ''}`}
              strokeWidth={1.5}
              onClick={() => open(p.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  open(p.id);
                }
              }}
            >
              <title>{describe(p)}</title>
            </circle>
          </g>
        ))}
        {best ? (
          <g data-testid="chart-best" pointerEvents="none">
            <circle
              cx={x(best.n)}
              cy={y(best.figure.time_ms)}
              r={10}
              fill="none"
              className="stroke-emerald-500"
              strokeWidth={2.5}
            />
            <circle cx={LEGEND_X + 6} cy={14} r={6} fill="none" className="stroke-emerald-500" strokeWidth={2} />
            <text x={LEGEND_X + 18} y={18} className="fill-emerald-700 font-semibold dark:fill-emerald-400">
              {bestLabel}
            </text>
          </g>
        ) : null}
      </svg>
      <figcaption className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        Time of each accepted attempt, the figure the best is chosen by (the lowest), on a log axis: lower is faster.
        The bars are 95% intervals, the best is circled and the dashed line is the baseline timed beside it (each
        attempt's speedup is over the baseline timed beside that attempt). An attempt whose verdict is not accepted has
        no time here. Select a point to open the attempt.
      </figcaption>
    </figure>
  );
}
