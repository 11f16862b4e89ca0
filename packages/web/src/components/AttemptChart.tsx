// An SVG chart of time per attempt (accepted attempts only): nice ticks in one unit, the baseline as a dashed line,
// each point's spread as a bar, the best one circled; a point opens its attempt. Drawn at the width it is given, so
// its text stays at its real size on a phone.
import type { GenerationAttempt } from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { useWidth } from '../hooks/useWidth';
import { formatMs } from '../lib/format';
import { spreadMs } from '../lib/noise';

const H = 240;
const PAD = { left: 64, right: 24, top: 28, bottom: 40 };

export function attemptTime(attempt: GenerationAttempt): number | undefined {
  const t = attempt.evaluation_state?.benchmarking_result?.optimized_time;
  return attempt.status === 'completed' && typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

/** Tick values at 1, 2 or 5 times a power of ten, from 0 to at least `max`. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power) as number;
  const ticks: number[] = [];
  for (let v = 0; v < max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** One unit for every tick: the unit of the largest one. */
export function tickFormatter(max: number): (ms: number) => string {
  const [scale, unit] = max >= 1000 ? [1e-3, 's'] : max >= 1 ? [1, 'ms'] : max >= 0.001 ? [1e3, 'µs'] : [1e6, 'ns'];
  return (ms) => `${Number((ms * scale).toPrecision(4))} ${unit}`;
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
  const points = attempts.flatMap((a) => {
    const t = attemptTime(a);
    const result = a.evaluation_state?.benchmarking_result;
    return t === undefined ? [] : [{ id: a.id, n: a.attempt_number, t, spread: spreadMs(result) ?? 0 }];
  });
  if (points.length === 0) {
    return (
      <p className="py-6 text-sm text-slate-500 dark:text-slate-400">
        No timed attempt yet: the chart fills in as attempts are accepted.
      </p>
    );
  }
  const baselines = attempts.flatMap((a) => {
    const b = a.evaluation_state?.benchmarking_result?.baseline_time;
    return attemptTime(a) !== undefined && typeof b === 'number' && Number.isFinite(b) ? [b] : [];
  });
  const baseline = baselines.length ? baselines.reduce((x, y) => x + y, 0) / baselines.length : undefined;
  const maxN = Math.max(...attempts.map((a) => a.attempt_number), 1);
  const top = Math.max(...points.map((p) => p.t + p.spread), baseline ?? 0);
  const ticks = niceTicks(top);
  const maxT = ticks[ticks.length - 1] ?? top;
  const fmt = tickFormatter(maxT);
  const plotW = Math.max(W - PAD.left - PAD.right, 40);
  const x = (n: number) => PAD.left + (maxN === 1 ? 0.5 : (n - 1) / (maxN - 1)) * plotW;
  const y = (t: number) => PAD.top + (1 - t / maxT) * (H - PAD.top - PAD.bottom);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.n).toFixed(1)},${y(p.t).toFixed(1)}`).join(' ');
  const best = points.find((p) => p.id === bestId);
  // Label every attempt when they fit (about 28 px each), else every k-th.
  const every = Math.max(1, Math.ceil(maxN / Math.max(1, Math.floor(plotW / 28))));
  const open = (id: string) => sessionId && navigate(`/kernels/${sessionId}/attempts/${id}`);
  return (
    <figure ref={ref}>
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Time per attempt, ${points.length} timed attempts`}
        className="block max-w-full text-xs"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(t)}
              y2={y(t)}
              className="stroke-slate-200 dark:stroke-slate-800"
            />
            <text x={PAD.left - 8} y={y(t) + 4} textAnchor="end" className="fill-slate-500 dark:fill-slate-400">
              {fmt(t)}
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
              className="fill-slate-500 dark:fill-slate-400"
            >
              #{a.attempt_number}
            </text>
          ))}
        <text x={PAD.left + plotW / 2} y={H - 4} textAnchor="middle" className="fill-slate-500 dark:fill-slate-400">
          attempt
        </text>
        {baseline !== undefined ? (
          <g data-testid="chart-baseline">
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={y(baseline)}
              y2={y(baseline)}
              strokeDasharray="6 4"
              className="stroke-amber-500"
              strokeWidth={1.5}
            />
            <text x={W - PAD.right} y={y(baseline) - 6} textAnchor="end" className="fill-amber-700 dark:fill-amber-300">
              baseline {formatMs(baseline)}
            </text>
          </g>
        ) : null}
        <path d={path} fill="none" className="stroke-indigo-500" strokeWidth={2} />
        {points.map((p) => (
          <g key={p.id}>
            {p.spread > 0 ? (
              <line
                x1={x(p.n)}
                x2={x(p.n)}
                y1={y(Math.min(maxT, p.t + p.spread))}
                y2={y(Math.max(0, p.t - p.spread))}
                className="stroke-indigo-300 dark:stroke-indigo-700"
                strokeWidth={6}
                strokeLinecap="round"
              />
            ) : null}
            <circle
              cx={x(p.n)}
              cy={y(p.t)}
              r={6}
              role="button"
              tabIndex={sessionId ? 0 : -1}
              aria-label={`Attempt #${p.n}: ${formatMs(p.t)}`}
              data-testid="chart-point"
              className={`fill-indigo-500 ${sessionId ? 'cursor-pointer hover:fill-indigo-700' : ''}`}
              onClick={() => open(p.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  open(p.id);
                }
              }}
            >
              <title>{`#${p.n}: ${formatMs(p.t)}${p.spread ? ` ± ${formatMs(p.spread)}` : ''}`}</title>
            </circle>
          </g>
        ))}
        {best ? (
          <g data-testid="chart-best" pointerEvents="none">
            <circle cx={x(best.n)} cy={y(best.t)} r={10} fill="none" className="stroke-emerald-500" strokeWidth={2.5} />
            <text
              x={Math.min(Math.max(x(best.n), PAD.left + 50), W - PAD.right - 50)}
              y={Math.max(y(best.t) - 16, 12)}
              textAnchor="middle"
              className="fill-emerald-700 font-semibold dark:fill-emerald-400"
            >
              best {formatMs(best.t)}
            </text>
          </g>
        ) : null}
      </svg>
      <figcaption className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        Optimised time of each accepted attempt with its spread (±1σ); the best is circled
        {baseline !== undefined ? ', the dashed line is the baseline' : ''}. Select a point to open the attempt.
      </figcaption>
    </figure>
  );
}
