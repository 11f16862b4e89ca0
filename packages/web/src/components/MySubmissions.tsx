// "Your submissions": the latest ones with their status or verdict, time and speedup; each opens its page. Tick two
// to compare them.
import type { Submission } from '@kernelforge/sdk';
import { useState } from 'react';
import { formatDate, formatMs } from '../lib/format';
import { problemLabel } from '../lib/problemName';
import { comparePairPath } from '../lib/submissionCompare';
import { AppLink } from './AppLink';
import { buttonClass } from './Button';
import { DataTable } from './DataTable';
import { type EmptyAction, EmptyState } from './EmptyState';
import { ProblemName } from './ProblemName';
import { Speedup } from './Speedup';
import { StatusBadge, VerdictBadge } from './StatusBadge';

export function MySubmissionsTable({
  submissions,
  total,
  emptyAction,
}: {
  submissions: readonly Submission[];
  total: number;
  /** The next step an empty list offers. */
  emptyAction?: EmptyAction;
}) {
  // The last two ticked, in the order ticked; a third tick drops the oldest (as on the sweeps page).
  const [picked, setPicked] = useState<string[]>([]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  if (submissions.length === 0)
    return (
      <EmptyState icon="submissions" title="No submissions yet" action={emptyAction}>
        Submit a solution to a problem: it is compiled, checked on hidden inputs and timed, and ranked when accepted.
      </EmptyState>
    );
  const pair = picked.map((id) => submissions.find((s) => s.id === id)).filter((s) => s !== undefined);
  return (
    <div className="overflow-x-auto">
      {submissions.length > 1 ? (
        <div className="mb-2 flex flex-wrap items-center justify-end gap-2" data-testid="compare-submissions">
          {pair[0] && pair[1] ? (
            <AppLink href={comparePairPath(pair[0], pair[1])} className={buttonClass('primary', 'sm')}>
              Compare the two
            </AppLink>
          ) : (
            <span className="text-xs text-slate-500 dark:text-slate-400">Tick two to compare them</span>
          )}
        </div>
      ) : null}
      <DataTable
        variant="plain"
        testId="my-submissions"
        rows={submissions}
        rowKey={(s) => s.id}
        rowTestId="my-submission"
        columns={[
          {
            id: 'compare',
            srHeader: 'Compare',
            cell: (s) => (
              <input
                type="checkbox"
                aria-label={`Compare the submission to ${problemLabel(s.problem_name)} of ${formatDate(s.created_at)}`}
                checked={picked.includes(s.id)}
                onChange={() => toggle(s.id)}
              />
            ),
          },
          {
            id: 'problem',
            header: 'Problem',
            cell: (s) => (
              <AppLink href={`/leaderboard/submission/${s.id}`}>
                <ProblemName name={s.problem_name} narrow />
              </AppLink>
            ),
          },
          { id: 'device', header: 'Device', className: 'font-mono text-xs', cell: (s) => s.device },
          {
            id: 'result',
            header: 'Result',
            title: (s) => s.evaluation_state?.message ?? s.error ?? undefined,
            cell: (s) =>
              s.status === 'completed' ? <VerdictBadge verdict={s.verdict} /> : <StatusBadge status={s.status} />,
          },
          { id: 'time', header: 'Time', align: 'right', cell: (s) => formatMs(s.time_ms) },
          {
            id: 'speedup',
            header: 'Speedup',
            align: 'right',
            cell: (s) => (
              <Speedup value={s.speedup} interval={s.evaluation_state?.benchmarking_result?.speedup_interval} />
            ),
          },
          {
            id: 'submitted',
            header: 'Submitted',
            className: 'text-xs text-slate-500 dark:text-slate-400',
            cell: (s) => formatDate(s.created_at),
          },
        ]}
      />
      {total > submissions.length ? (
        <p className="pt-2 text-xs text-slate-500 dark:text-slate-400">
          The latest {submissions.length} of {total}.
        </p>
      ) : null}
    </div>
  );
}
