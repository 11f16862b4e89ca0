// `/leaderboard/{problemId}` ('Problem: <name>'): the statement, the baseline, a chart of the top entries and the
// top 100 with a device filter (?device=); Submit opens the submit page for this problem.
import { ApiError, problemTitle } from '@kernelforge/sdk';
import { AppLink } from '../components/AppLink';
import { buttonClass } from '../components/Button';
import { Card } from '../components/Card';
import { DeviceSelect } from '../components/DeviceSelect';
import { EmptyState } from '../components/EmptyState';
import { ExportButtons } from '../components/ExportButtons';
import { LeaderChart } from '../components/LeaderChart';
import { LeaderboardTable } from '../components/LeaderboardTable';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { TorchProblemSummary } from '../components/TorchProblemSummary';
import { WayBack } from '../components/WayBack';
import { useDevices } from '../hooks/useDevices';
import { useLeaderboard } from '../hooks/useLeaderboards';
import { useProblem, useProblems } from '../hooks/useProblems';
import { useQueryParam } from '../hooks/useQueryParam';
import { leaderboardTable } from '../lib/exportTable';
import { formatMs } from '../lib/format';
import { closestProblemName } from '../lib/formChecks';
import type { PageProps } from '../lib/matchPath';
import { languageName, sizesKind } from '../lib/problemKind';

export const PROBLEM_ID_REQUIRED = 'Problem ID is required';

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : undefined;
};

export default function LeaderboardPage({ params }: PageProps) {
  const problemId = params.problemId ?? '';
  // The device filter lives in the address (?device=), so a link opens the board filtered.
  const [device, setDevice] = useQueryParam('device');
  const { data, error } = useLeaderboard(problemId.trim() ? problemId : '', device);
  const devices = useDevices();
  const problem = useProblem(problemId.trim() ? problemId : undefined);
  const submitHref = `/kernels/submit?problem=${encodeURIComponent(problemId)}`;
  if (!problemId.trim()) throw new Error(PROBLEM_ID_REQUIRED);
  if (error instanceof ApiError && error.status === 404) return <UnknownProblem name={problemId} />;
  // The baseline of a ranked run is time x speedup (each run times its own, beside the candidate); the entries' median
  // of it is the board's baseline, and the page says that is what it is (issue 35: it moved between pages unsaid).
  const baselines = (data?.entries ?? []).flatMap((e) => (e.speedup && e.speedup > 0 ? [e.time_ms * e.speedup] : []));
  const baseline = median(baselines);
  return (
    <>
      <PageHeader
        title={`Problem: ${problemTitle(problemId)}`}
        subtitle={<ProblemName name={problemId} title={data?.title ?? problem.data?.title} />}
        actions={
          <AppLink href={submitHref} className={buttonClass('primary')}>
            Submit a solution
          </AppLink>
        }
      />
      {problem.data ? (
        <Card title="The problem" className="mb-6">
          {problem.data.kind === 'pytorch' ? (
            <TorchProblemSummary
              problem={problem.data}
              deviceKind={sizesKind(
                problem.data,
                devices.data?.data.find((d) => d.id === device),
              )}
              referenceOpen={false}
            />
          ) : (
            <>
              <p className="text-sm whitespace-pre-line text-slate-700 dark:text-slate-300">
                {problem.data.description}
              </p>
              <p className="mt-3 overflow-x-auto font-mono text-xs text-slate-600 dark:text-slate-400">
                {problem.data.prototype}
              </p>
            </>
          )}
          <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
            {problem.data.kind === 'pytorch' ? null : (
              <div>
                <dt className="inline text-slate-500 dark:text-slate-400">Level </dt>
                <dd className="inline">{problem.data.level}</dd>
              </div>
            )}
            <div>
              <dt className="inline text-slate-500 dark:text-slate-400">Languages </dt>
              <dd className="inline">{problem.data.languages.map(languageName).join(', ')}</dd>
            </div>
            <div>
              <dt className="inline text-slate-500 dark:text-slate-400">Baseline time </dt>
              <dd className="inline tabular-nums" data-testid="baseline">
                {formatMs(baseline)}
                {baselines.length > 0 ? (
                  <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">
                    (the median of the baselines timed beside the {baselines.length} ranked{' '}
                    {baselines.length === 1 ? 'run' : 'runs'} shown; each run times its own)
                  </span>
                ) : null}
              </dd>
            </div>
          </dl>
        </Card>
      ) : null}
      <Card>
        <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
          <div className="w-full max-w-sm">
            <DeviceSelect
              label="Device"
              devices={devices.data?.data ?? []}
              value={device}
              onChange={setDevice}
              allowAny="All devices"
            />
          </div>
          {data && data.entries.length > 0 ? (
            <ExportButtons
              name={`${problemId}-leaderboard${device ? `-${device}` : ''}`}
              what="the leaderboard"
              table={() => leaderboardTable(data.entries)}
            />
          ) : null}
        </div>
        <QueryState data={data} error={error}>
          {(board) =>
            board.entries.length === 0 ? (
              <EmptyState
                icon="leaderboard"
                title={device ? `No ranked submission on ${device} yet` : 'No ranked submission yet'}
                action={{ label: 'Submit a solution for this problem', href: submitHref }}
              >
                An accepted solution is timed in ranked mode and takes the first place here.
              </EmptyState>
            ) : (
              <>
                <LeaderChart entries={board.entries} baseline={baseline} />
                <div className="mt-4 overflow-x-auto">
                  <LeaderboardTable entries={board.entries} />
                </div>
              </>
            )
          }
        </QueryState>
      </Card>
    </>
  );
}

/**
 * A problem name the catalogue does not know: the loading wrapper's words (spec section 8: 'Something went wrong:
 * {status text}'), its detail said in the product's words instead of the API's ("GET /api/v1/problems lists them"),
 * the name meant when it is plain, and the way back to the leaderboards.
 */
function UnknownProblem({ name }: { name: string }) {
  const problems = useProblems();
  const meant = problems.data
    ? closestProblemName(
        name,
        problems.data.data.map((p) => p.name),
      )
    : undefined;
  return (
    <>
      <PageHeader title={`Problem: ${problemTitle(name)}`} />
      <div
        role="alert"
        data-testid="unknown-problem"
        className="my-6 rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm dark:border-rose-900 dark:bg-rose-950/40"
      >
        <p className="font-semibold text-rose-800 dark:text-rose-200">Something went wrong: Not Found</p>
        <p className="mt-1 text-rose-700 wrap-anywhere dark:text-rose-300">
          There is no problem named {name}.
          {meant ? ` Did you mean ${meant}? Names are matched exactly, capitals included.` : ''}
        </p>
        {meant ? (
          <p className="mt-3">
            <AppLink href={`/leaderboard/${encodeURIComponent(meant)}`} className={buttonClass('primary', 'sm')}>
              Open {meant}
            </AppLink>
          </p>
        ) : null}
        <WayBack />
      </div>
    </>
  );
}
