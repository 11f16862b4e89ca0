// A bar chart of a board's top entries (time, shorter is better), the baseline as a line; flagged entries hatched.
// Drawn at the width it is given (not a scaled viewBox), so its 12 px labels stay 12 px on a phone.
import type { LeaderboardEntry } from '@kernelforge/sdk';
import { useWidth } from '../hooks/useWidth';
import { formatMs } from '../lib/format';

const ROW = 26;
const LABEL = 130;

export function LeaderChart({
  entries,
  baseline,
}: {
  entries: readonly LeaderboardEntry[];
  baseline?: number | undefined;
}) {
  const [ref, measured] = useWidth<HTMLElement>(600);
  const top = entries.slice(0, 10);
  if (top.length === 0) return null;
  const max = Math.max(...top.map((e) => e.time_ms), baseline ?? 0) * 1.05;
  const W = Math.min(Math.max(measured, 260), 768);
  const H = top.length * ROW + 24;
  const x = (t: number) => LABEL + (t / max) * (W - LABEL - 80);
  return (
    <figure data-testid="leader-chart" ref={ref} className="min-w-0">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        className="block text-[12px]"
        role="img"
        aria-label="Top entries by time"
      >
        {top.map((e, i) => (
          <g key={e.submission_id}>
            <text x={LABEL - 8} y={i * ROW + 17} textAnchor="end" className="fill-slate-700 dark:fill-slate-300">
              {e.rank}. {e.user.display_name.slice(0, 16)}
            </text>
            <rect
              x={LABEL}
              y={i * ROW + 5}
              width={Math.max(2, x(e.time_ms) - LABEL)}
              height={ROW - 10}
              rx={3}
              className={e.flagged_for_review ? 'fill-amber-400/60' : 'fill-indigo-500'}
            />
            <text x={x(e.time_ms) + 6} y={i * ROW + 17} className="fill-slate-600 dark:fill-slate-400">
              {formatMs(e.time_ms)}
              {e.flagged_for_review ? ' ⚑' : ''}
            </text>
          </g>
        ))}
        {baseline ? (
          <g>
            <line
              x1={x(baseline)}
              x2={x(baseline)}
              y1={0}
              y2={H - 18}
              strokeDasharray="5 4"
              className="stroke-amber-500"
              strokeWidth={1.5}
            />
            <text x={x(baseline)} y={H - 4} textAnchor="middle" className="fill-amber-700 dark:fill-amber-300">
              baseline {formatMs(baseline)}
            </text>
          </g>
        ) : null}
      </svg>
    </figure>
  );
}
