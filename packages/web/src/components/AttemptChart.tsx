// An SVG chart of time per attempt (accepted attempts only), the best one marked.
import type { GenerationAttempt } from '@kernelforge/sdk';
import { formatMs } from '../lib/format';

const W = 640;
const H = 220;
const PAD = { left: 64, right: 40, top: 30, bottom: 36 };

export function attemptTime(attempt: GenerationAttempt): number | undefined {
  const t = attempt.evaluation_state?.benchmarking_result?.optimized_time;
  return attempt.status === 'completed' && typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

export function AttemptChart({
  attempts,
  bestId,
}: {
  attempts: readonly GenerationAttempt[];
  bestId: string | undefined;
}) {
  const points = attempts.flatMap((a) => {
    const t = attemptTime(a);
    return t === undefined ? [] : [{ id: a.id, n: a.attempt_number, t }];
  });
  if (points.length === 0) {
    return (
      <p className="py-6 text-sm text-slate-500 dark:text-slate-400">
        No timed attempt yet: the chart fills in as attempts are accepted.
      </p>
    );
  }
  const maxN = Math.max(...attempts.map((a) => a.attempt_number), 1);
  const maxT = Math.max(...points.map((p) => p.t)) * 1.05;
  const x = (n: number) => PAD.left + (maxN === 1 ? 0.5 : (n - 1) / (maxN - 1)) * (W - PAD.left - PAD.right);
  const y = (t: number) => PAD.top + (1 - t / maxT) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => f * maxT);
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.n).toFixed(1)},${y(p.t).toFixed(1)}`).join(' ');
  const best = points.find((p) => p.id === bestId);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Time per attempt, ${points.length} timed attempts`}
        className="h-auto w-full"
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
            <text
              x={PAD.left - 8}
              y={y(t) + 4}
              textAnchor="end"
              className="fill-slate-500 text-[10px] dark:fill-slate-400"
            >
              {formatMs(t)}
            </text>
          </g>
        ))}
        {attempts.map((a) => (
          <text
            key={a.id}
            x={x(a.attempt_number)}
            y={H - PAD.bottom + 16}
            textAnchor="middle"
            className="fill-slate-500 text-[10px] dark:fill-slate-400"
          >
            #{a.attempt_number}
          </text>
        ))}
        <text
          x={(W + PAD.left) / 2}
          y={H - 4}
          textAnchor="middle"
          className="fill-slate-500 text-[10px] dark:fill-slate-400"
        >
          attempt
        </text>
        <path d={path} fill="none" className="stroke-indigo-500" strokeWidth={2} />
        {points.map((p) => (
          <circle key={p.id} cx={x(p.n)} cy={y(p.t)} r={4} className="fill-indigo-500">
            <title>{`#${p.n}: ${formatMs(p.t)}`}</title>
          </circle>
        ))}
        {best ? (
          <g data-testid="chart-best">
            <circle cx={x(best.n)} cy={y(best.t)} r={9} fill="none" className="stroke-emerald-500" strokeWidth={2.5} />
            <text
              x={Math.max(x(best.n), PAD.left + 40)}
              y={y(best.t) - 14}
              textAnchor="middle"
              className="fill-emerald-600 text-[11px] font-semibold dark:fill-emerald-400"
            >
              best {formatMs(best.t)}
            </text>
          </g>
        ) : null}
      </svg>
      <figcaption className="sr-only">Optimised time of each accepted attempt; the best is circled.</figcaption>
    </figure>
  );
}
