// Coloured badges for attempt, session and instruction statuses and for verdicts.
const TONES: Record<string, string> = {
  completed: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  accepted: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  active: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  generating: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  evaluating: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
  // A sweep (or a sweep's problem) under way: in progress, not in trouble.
  running: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
  queued: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  idle: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  stopped: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200',
  failed: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-200',
};
const BAD = 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-200';

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${TONES[status] ?? BAD}`}>
      {(status === 'generating' || status === 'evaluating' || status === 'running') && (
        <span aria-hidden="true" className="mr-1 size-1.5 motion-safe:animate-pulse rounded-full bg-current" />
      )}
      {status.replace(/_/g, ' ')}
    </span>
  );
}

/**
 * Where an attempt or a submission is in its lifecycle: queued, evaluating, then done. A finished one reads "done"
 * in a neutral tone: its verdict beside it carries the colour (a compile error is never a green badge).
 */
export function LifecycleBadge({ status }: { status: string }) {
  if (status !== 'completed') return <StatusBadge status={status} />;
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${TONES.idle}`}
      data-status="completed"
    >
      done
    </span>
  );
}

export function VerdictBadge({ verdict }: { verdict: string | null | undefined }) {
  if (!verdict) return <span className="text-slate-400">—</span>;
  return <StatusBadge status={verdict} />;
}
