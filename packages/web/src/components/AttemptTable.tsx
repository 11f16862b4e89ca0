// Attempts as a list: number, status, verdict, time, speedup; the agent's text while it generates.
import type { GenerationAttempt } from '@kernelforge/sdk';
import { formatMs, formatSpeedup } from '../lib/format';
import { AppLink } from './AppLink';
import { StatusBadge, VerdictBadge } from './StatusBadge';

export function AttemptTable({
  sessionId,
  attempts,
  bestId,
  streamed = {},
}: {
  sessionId: string;
  attempts: readonly GenerationAttempt[];
  bestId: string | undefined;
  streamed?: Record<string, string>;
}) {
  if (attempts.length === 0) return <p className="py-4 text-sm text-slate-500 dark:text-slate-400">No attempts yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="attempts">
        <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
          <tr>
            <th className="py-2 pr-4 font-medium">Attempt</th>
            <th className="py-2 pr-4 font-medium">Status</th>
            <th className="py-2 pr-4 font-medium">Verdict</th>
            <th className="py-2 pr-4 text-right font-medium">Time</th>
            <th className="py-2 text-right font-medium">Speedup</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => {
            const result = a.evaluation_state?.benchmarking_result;
            const text = streamed[a.id];
            return (
              <tr
                key={a.id}
                data-testid="attempt-row"
                className="border-t border-slate-100 align-top dark:border-slate-800"
              >
                <td className="py-2 pr-4">
                  <AppLink href={`/kernels/${sessionId}/attempts/${a.id}`}>Attempt #{a.attempt_number}</AppLink>
                  {a.id === bestId ? (
                    <span className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
                      best
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
                <td className="py-2 pr-4">
                  <StatusBadge status={a.status} />
                </td>
                <td className="py-2 pr-4">
                  <VerdictBadge verdict={a.evaluation_state?.verdict} />
                </td>
                <td className="py-2 pr-4 text-right tabular-nums">{formatMs(result?.optimized_time)}</td>
                <td className="py-2 text-right tabular-nums">{formatSpeedup(result?.speedup)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
