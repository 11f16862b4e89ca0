// `/agents` ('Agents'): the agents leaderboard: per agent, model, instruction and attempts per problem, that
// configuration's best completed sweep on a named set, ranked by fast_1 (then fast_0, then the geometric mean).
import { BUILTIN_SWEEP_SETS } from '@kernelforge/sdk';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/fields';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { useDevices } from '../hooks/useDevices';
import { useAgentsLeaderboard, useSweepSets } from '../hooks/useSweeps';
import { formatPercent, formatSpeedup } from '../lib/format';
import { FAST_P_HELP } from './SweepsPage';

export default function AgentsLeaderboardPage() {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const set = params.get('set') || 'c-abi';
  const device = params.get('device') ?? '';
  const board = useAgentsLeaderboard(set, device);
  const devices = useDevices();
  const sets = useSweepSets();
  const setNames = sets.data?.data.map((s) => s.name) ?? [...BUILTIN_SWEEP_SETS];
  const change = (key: string, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(key, value);
    else next.delete(key);
    navigate(`/agents${next.toString() ? `?${next}` : ''}`, { replace: true });
  };
  return (
    <>
      <PageHeader
        title="Agents"
        subtitle={`Agents, models and instructions ranked by their best completed sweep on a problem set. ${FAST_P_HELP}`}
        actions={<AppLink href="/sweeps">Sweeps</AppLink>}
      />
      <Card>
        <form className="mb-4 grid gap-4 sm:grid-cols-2" onSubmit={(e) => e.preventDefault()}>
          <SelectField label="Problem set" value={set} onChange={(e) => change('set', e.target.value)}>
            {setNames.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </SelectField>
          <SelectField label="Device" value={device} onChange={(e) => change('device', e.target.value)}>
            <option value="">Every device</option>
            {(devices.data?.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.id}
              </option>
            ))}
          </SelectField>
        </form>
        <QueryState data={board.data} error={board.error} label="Loading the agents leaderboard…">
          {(b) =>
            b.data.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">
                No completed sweep of set {b.set} yet. Start one on the <AppLink href="/sweeps">Sweeps</AppLink> page.
              </p>
            ) : (
              <div className="overflow-x-auto">
                <DataTable
                  variant="compact"
                  ariaLabel="Agents leaderboard"
                  rows={b.data}
                  rowKey={(r) => r.sweep_id}
                  columns={[
                    { id: 'rank', header: 'Rank', className: 'tabular-nums', cell: (r) => r.rank },
                    {
                      id: 'agent',
                      header: 'Agent',
                      cell: (r) => `${r.agent.provider}${r.agent.model ? ` ${r.agent.model}` : ''}`,
                    },
                    {
                      id: 'instruction',
                      header: 'Instruction',
                      className: 'max-w-xs truncate',
                      title: (r) => r.instruction ?? undefined,
                      cell: (r) => r.instruction ?? 'default',
                    },
                    { id: 'attempts', header: 'Attempts', align: 'right', cell: (r) => r.attempts_per_problem },
                    { id: 'device', header: 'Device', cell: (r) => r.device },
                    { id: 'fast0', header: 'fast_0', align: 'right', cell: (r) => formatPercent(r.fast_p['0']) },
                    { id: 'fast1', header: 'fast_1', align: 'right', cell: (r) => formatPercent(r.fast_p['1']) },
                    {
                      id: 'fast1-point',
                      header: 'fast_1 (KernelBench)',
                      headerTitle: 'KernelBench’s rule: the point speedup above 1, noise or not',
                      align: 'right',
                      testId: 'fast-1-point',
                      cell: (r) => formatPercent(r.fast_p_point['1']),
                    },
                    { id: 'fast2', header: 'fast_2', align: 'right', cell: (r) => formatPercent(r.fast_p['2']) },
                    {
                      id: 'geomean',
                      header: 'Geomean',
                      align: 'right',
                      cell: (r) => formatSpeedup(r.geomean_speedup),
                    },
                    {
                      id: 'best-sweep',
                      header: 'Best sweep',
                      cell: (r) => (
                        <>
                          <AppLink href={`/sweeps/${r.sweep_id}`}>{r.sweep_name}</AppLink>
                          {r.sweeps > 1 ? <span className="text-xs text-slate-500"> (best of {r.sweeps})</span> : null}
                        </>
                      ),
                    },
                  ]}
                />
              </div>
            )
          }
        </QueryState>
      </Card>
    </>
  );
}
