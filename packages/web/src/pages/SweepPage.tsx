// `/sweeps/:sweepId`: a sweep live (problems done of N, fast_p so far), its fast_p curve and per-problem table.
import { sweepTable } from '../lib/exportTable';
import type { PageProps } from '../lib/matchPath';
import { navigate } from 'wouter/use-browser-location';
import { AppLink } from '../components/AppLink';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { DataTable } from '../components/DataTable';
import { ExportButtons } from '../components/ExportButtons';
import { FastPCurve, FastPTable } from '../components/FastPCurve';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { Speedup } from '../components/Speedup';
import { StatusBadge, VerdictBadge } from '../components/StatusBadge';
import { useAction } from '../hooks/useAction';
import { sweepDone, useSweep, useSweepMutations } from '../hooks/useSweeps';
import { formatSpeedup } from '../lib/format';
import { FAST_P_HELP } from './SweepsPage';

export default function SweepPage({ params }: PageProps) {
  const id = params.sweepId ?? '';
  const { data, error } = useSweep(id);
  const { busy, run } = useAction();
  const sweeps = useSweepMutations();
  const stop = async () => {
    await run(() => sweeps.stop(id), 'Could not stop the sweep', 'Sweep stopped');
  };
  const remove = async () => {
    const done = await run(() => sweeps.remove(id), 'Could not delete the sweep', 'Sweep deleted');
    if (done) navigate('/sweeps');
  };
  return (
    <>
      <PageHeader
        title={data?.name ?? 'Sweep'}
        subtitle={
          <span>
            <AppLink href="/sweeps">Sweeps</AppLink> · {FAST_P_HELP}
          </span>
        }
        actions={
          data ? (
            <>
              {!sweepDone(data) ? (
                <Button variant="danger" disabled={busy} onClick={stop}>
                  Stop sweep
                </Button>
              ) : null}
              <Button disabled={busy} onClick={remove}>
                Delete
              </Button>
            </>
          ) : null
        }
      />
      <QueryState data={data} error={error} label="Loading the sweep…">
        {(sweep) => (
          <div className="grid gap-6">
            <Card title="Score">
              <dl className="mb-4 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
                <dt className="text-slate-500">Status</dt>
                <dd data-testid="sweep-status">
                  <StatusBadge status={sweep.status} />
                </dd>
                <dt className="text-slate-500">Problems done</dt>
                <dd data-testid="sweep-progress">
                  {sweep.problems_done} of {sweep.problem_count}
                </dd>
                <dt className="text-slate-500">Agent</dt>
                <dd>
                  {sweep.agent.provider}
                  {sweep.agent.model ? ` ${sweep.agent.model}` : ''}
                </dd>
                <dt className="text-slate-500">Device</dt>
                <dd>{sweep.device}</dd>
                <dt className="text-slate-500">Attempts per problem</dt>
                <dd>{sweep.attempts_per_problem}</dd>
                <dt className="text-slate-500">Geometric mean</dt>
                <dd data-testid="sweep-geomean">{formatSpeedup(sweep.geomean_speedup)}</dd>
                {sweep.set ? (
                  <>
                    <dt className="text-slate-500">Set</dt>
                    <dd>{sweep.set}</dd>
                  </>
                ) : null}
                {sweep.token_usage.input_tokens + sweep.token_usage.output_tokens > 0 ? (
                  <>
                    <dt className="text-slate-500">Tokens</dt>
                    <dd>
                      {sweep.token_usage.input_tokens} in, {sweep.token_usage.output_tokens} out
                    </dd>
                  </>
                ) : null}
              </dl>
              {sweep.instruction ? (
                <p className="mb-4 text-sm">
                  <span className="text-slate-500">Instruction:</span> {sweep.instruction}
                </p>
              ) : null}
              <FastPTable
                firstHeader="Counted by"
                series={[
                  { label: 'its interval above p', fast_p: sweep.fast_p },
                  { label: 'KernelBench: its point above p', fast_p: sweep.fast_p_point, rule: 'point' },
                ]}
              />
              {sweep.status === 'running' || sweep.status === 'queued' ? (
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="sweep-so-far">
                  So far: {sweep.problems_done} of {sweep.problem_count} problems are done; a problem not finished
                  counts as not correct, so these shares only grow as the sweep runs.
                </p>
              ) : null}
              {sweep.set ? null : (
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="sweep-not-on-agents">
                  Not on the <AppLink href="/agents">agents leaderboard</AppLink>: it ranks sweeps over a named problem
                  set, so that every entry there answered the same problems. A list saved as a set (PUT
                  /api/v1/sweep-set/{'{name}'}) and swept as that set is ranked there.
                </p>
              )}
              <div className="mt-4">
                <FastPCurve series={[{ label: sweep.name, fast_p: sweep.fast_p }]} />
              </div>
            </Card>
            <Card
              title="Problems"
              actions={
                <ExportButtons
                  name={`${sweep.name}-problems`}
                  what="the sweep's problems"
                  table={() => sweepTable(sweep)}
                />
              }
            >
              <div className="overflow-x-auto">
                <DataTable
                  variant="compact"
                  ariaLabel="Problems"
                  rows={sweep.problems}
                  rowKey={(p) => p.problem_name}
                  columns={[
                    { id: 'problem', header: 'Problem', cell: (p) => <ProblemName name={p.problem_name} narrow /> },
                    { id: 'status', header: 'Status', cell: (p) => <StatusBadge status={p.status} /> },
                    {
                      id: 'correct',
                      header: 'Correct',
                      cell: (p) => (p.status === 'completed' ? (p.correct ? 'yes' : 'no') : '—'),
                    },
                    {
                      id: 'speedup',
                      header: 'Speedup (ranked)',
                      align: 'right',
                      cell: (p) => <Speedup value={p.speedup} interval={p.speedup_interval} />,
                    },
                    {
                      id: 'verdict',
                      header: 'Verdict',
                      cell: (p) => (
                        <>
                          <VerdictBadge verdict={p.verdict} />
                          {p.error ? <span className="ml-2 text-xs text-rose-700">{p.error}</span> : null}
                        </>
                      ),
                    },
                    {
                      id: 'session',
                      header: 'Session',
                      cell: (p) => (
                        <>
                          {p.session_id ? <AppLink href={`/kernels/${p.session_id}`}>session</AppLink> : '—'}
                          {p.session_id && p.best_attempt_id ? (
                            <>
                              {' · '}
                              <AppLink href={`/kernels/${p.session_id}/attempts/${p.best_attempt_id}`}>
                                the attempt re-run
                              </AppLink>
                            </>
                          ) : null}
                        </>
                      ),
                    },
                  ]}
                />
              </div>
              <p className="mt-3 text-xs text-slate-600 dark:text-slate-400" data-testid="sweep-figure-note">
                Speedup (ranked) is the ranked re-run of each session's best attempt: fresh secret inputs, timed twice
                by fresh processes, the lower run shown with an interval that holds both. It is not the attempt's own
                benchmark figure, nor a leaderboard submission of the same source: each is a run of its own, and runs
                differ by what the process and the minute gave them (each interval says how far one run holds).
              </p>
            </Card>
          </div>
        )}
      </QueryState>
    </>
  );
}
