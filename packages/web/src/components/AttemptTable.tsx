// Attempts as a list: number, status, verdict, time and speedup with their 95% intervals (an attempt whose verdict is not
// accepted: "not ranked", and why); rows on phones; the agent's text live. Below it, why a higher speedup is not the
// best, when one is not.
import { attemptFigure, type GenerationAttempt, speedupDisagreements, unrankedReason } from '@kernelforge/sdk';
import { withinNoise } from '../lib/noise';
import { AppLink } from './AppLink';
import { DataTable } from './DataTable';
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
  const bestAttempt = attempts.find((a) => a.id === bestId);
  const best =
    bestAttempt && attemptFigure(bestAttempt) ? bestAttempt.evaluation_state?.benchmarking_result : undefined;
  const notes = speedupDisagreements(attempts, bestAttempt);
  return (
    <>
      <DataTable
        testId="attempts"
        rows={attempts}
        rowKey={(a) => a.id}
        rowTestId="attempt-row"
        columns={[
          {
            id: 'attempt',
            header: 'Attempt',
            wide: true,
            cell: (a) => {
              const figure = attemptFigure(a);
              const result = figure ? a.evaluation_state?.benchmarking_result : undefined;
              const text = streamed[a.id];
              const nearBest = a.id !== bestId && withinNoise(result, best);
              return (
                <>
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
                </>
              );
            },
          },
          { id: 'status', header: 'Status', cell: (a) => <LifecycleBadge status={a.status} /> },
          { id: 'verdict', header: 'Verdict', cell: (a) => <VerdictBadge verdict={a.evaluation_state?.verdict} /> },
          {
            id: 'time',
            header: 'Time',
            align: 'right',
            cell: (a) => {
              const unranked = unrankedReason(a);
              const figure = attemptFigure(a);
              return unranked ? (
                <span className="text-xs text-slate-500 dark:text-slate-400" title={unranked} data-testid="not-ranked">
                  not ranked
                </span>
              ) : (
                <TimeWithSpread ms={figure?.time_ms} interval={figure?.time_interval} />
              );
            },
          },
          {
            id: 'speedup',
            header: 'Speedup',
            align: 'right',
            cell: (a) => {
              const figure = attemptFigure(a);
              return <Speedup value={figure?.speedup} interval={figure?.speedup_interval} />;
            },
          },
        ]}
      />
      {notes.length > 0 || attempts.some((a) => unrankedReason(a)) ? (
        <div className="mt-3 space-y-1 text-xs text-slate-600 dark:text-slate-400" data-testid="figure-notes">
          {notes.map((n) => (
            <p key={n}>{n}</p>
          ))}
          {attempts.some((a) => unrankedReason(a)) ? (
            <p>
              "Not ranked": the attempt's verdict is not accepted, so its time counts for nothing; its figures are in
              its report.
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
