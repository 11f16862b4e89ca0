// "Your test runs": the latest runs of "Run tests" (benchmark mode on public inputs, never ranked), listed apart from
// "Your submissions" so a test run is never taken for a ranked result; each opens its page.
import type { Submission } from '@kernelforge/sdk';
import { formatDate, formatMs } from '../lib/format';
import { AppLink } from './AppLink';
import { DataTable } from './DataTable';
import { EmptyState } from './EmptyState';
import { ProblemName } from './ProblemName';
import { StatusBadge, VerdictBadge } from './StatusBadge';

export function MyTestRunsTable({ runs, total }: { runs: readonly Submission[]; total: number }) {
  if (runs.length === 0)
    return (
      <EmptyState icon="submissions" title="No test runs yet">
        Run tests checks your source against the reference and times it on public inputs, without ranking it.
      </EmptyState>
    );
  return (
    <div className="overflow-x-auto">
      <DataTable
        variant="plain"
        testId="my-test-runs"
        rows={runs}
        rowKey={(s) => s.id}
        rowTestId="my-test-run"
        columns={[
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
            id: 'ranked',
            header: 'Ranked',
            className: 'text-xs text-slate-600 dark:text-slate-300',
            cell: () => 'Test run, not ranked',
          },
          {
            id: 'run',
            header: 'Run',
            className: 'text-xs text-slate-500 dark:text-slate-400',
            cell: (s) => formatDate(s.created_at),
          },
        ]}
      />
      {total > runs.length ? (
        <p className="pt-2 text-xs text-slate-500 dark:text-slate-400">
          The latest {runs.length} of {total}.
        </p>
      ) : null}
    </div>
  );
}
