// Attempts as a list: number, status, verdict, time and speedup with their 95% intervals; rows on phones; the agent's text live.
import type { GenerationAttempt } from '@kernelforge/sdk';
import { withinNoise } from '../lib/noise';
import { stacked } from '../lib/stackedTable';
import { AppLink } from './AppLink';
import { type EmptyAction, EmptyState } from './EmptyState';
import { Speedup, TimeWithSpread } from './Speedup';
import { LifecycleBadge, VerdictBadge } from './StatusBadge';

export function AttemptTable({
  sessionId,
  attempts,
  bestId,
  streamed = {},
  emptyAction,
}: {
  sessionId: string;
  attempts: readonly GenerationAttempt[];
  bestId: string | undefined;
  streamed?: Record<string, string>;
  /** The next step an empty session offers (none for a deleted one). */
  emptyAction?: EmptyAction | undefined;
}) {
  if (attempts.length === 0)
    return (
      <EmptyState icon="attempts" title="No attempts yet" action={emptyAction}>
        The agent's attempts show here as it writes them, each compiled, checked and timed.
      </EmptyState>
    );
  const best = attempts.find((a) => a.id === bestId)?.evaluation_state?.benchmarking_result;
  return (
    <table className={stacked.table} data-testid="attempts">
      <thead className={stacked.thead}>
        <tr>
          <th className={stacked.th}>Attempt</th>
          <th className={stacked.th}>Status</th>
          <th className={stacked.th}>Verdict</th>
          <th className={`${stacked.th} text-right`}>Time</th>
          <th className={`${stacked.th} text-right`}>Speedup</th>
        </tr>
      </thead>
      <tbody className={stacked.tbody}>
        {attempts.map((a) => {
          const result = a.evaluation_state?.benchmarking_result;
          const text = streamed[a.id];
          const nearBest = a.id !== bestId && withinNoise(result, best);
          return (
            <tr key={a.id} data-testid="attempt-row" className={stacked.row}>
              <td className={`${stacked.cell} ${stacked.wide}`}>
                <AppLink href={`/kernels/${sessionId}/attempts/${a.id}`}>Attempt #{a.attempt_number}</AppLink>
                {a.id === bestId ? (
                  <span className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
                    best
                  </span>
                ) : null}
                {nearBest ? (
                  <span
                    className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                    title="Within noise of the best: their 95% time intervals overlap"
                  >
                    ≈ best, within noise
                  </span>
                ) : null}
                {a.status === 'generating' && text ? (
                  <pre
                    aria-live="polite"
                    className="mt-2 max-h-40 max-w-xl overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap text-slate-700 dark:bg-slate-950 dark:text-slate-300"
                  >
                    {text}
                  </pre>
                ) : null}
                {a.status === 'failed' && a.error ? (
                  <p className="mt-1 text-xs text-rose-700 dark:text-rose-300">{a.error}</p>
                ) : null}
              </td>
              <td data-label="Status" className={stacked.cell}>
                <LifecycleBadge status={a.status} />
              </td>
              <td data-label="Verdict" className={stacked.cell}>
                <VerdictBadge verdict={a.evaluation_state?.verdict} />
              </td>
              <td data-label="Time" className={`${stacked.cell} ${stacked.num}`}>
                <TimeWithSpread ms={result?.optimized_time} interval={result?.optimized_time_interval} />
              </td>
              <td data-label="Speedup" className={`${stacked.cell} ${stacked.num}`}>
                <Speedup value={result?.speedup} interval={result?.speedup_interval} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
