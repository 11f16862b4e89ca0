// `/agents` ('Agents'): the agents leaderboard: per agent, model, instruction and attempts per problem, that
// configuration's best completed sweep on a named set, ranked by fast_1 (then fast_0, then the geometric mean).
import { BUILTIN_SWEEP_SETS } from '@kernelforge/sdk';
import { useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
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
                <table className="min-w-full text-sm" aria-label="Agents leaderboard">
                  <thead>
                    <tr className="text-left text-slate-600 dark:text-slate-400">
                      <th className="py-1 pr-3 font-medium">Rank</th>
                      <th className="py-1 pr-3 font-medium">Agent</th>
                      <th className="py-1 pr-3 font-medium">Instruction</th>
                      <th className="py-1 pr-3 text-right font-medium">Attempts</th>
                      <th className="py-1 pr-3 font-medium">Device</th>
                      <th className="py-1 pr-3 text-right font-medium">fast_0</th>
                      <th className="py-1 pr-3 text-right font-medium">fast_1</th>
                      <th
                        className="py-1 pr-3 text-right font-medium"
                        title="KernelBench’s rule: the point speedup above 1, noise or not"
                      >
                        fast_1 (KernelBench)
                      </th>
                      <th className="py-1 pr-3 text-right font-medium">fast_2</th>
                      <th className="py-1 pr-3 text-right font-medium">Geomean</th>
                      <th className="py-1 pr-3 font-medium">Best sweep</th>
                    </tr>
                  </thead>
                  <tbody>
                    {b.data.map((r) => (
                      <tr key={r.sweep_id} className="border-t border-slate-200 dark:border-slate-800">
                        <td className="py-1 pr-3 tabular-nums">{r.rank}</td>
                        <td className="py-1 pr-3">
                          {r.agent.provider}
                          {r.agent.model ? ` ${r.agent.model}` : ''}
                        </td>
                        <td className="max-w-xs truncate py-1 pr-3" title={r.instruction ?? undefined}>
                          {r.instruction ?? 'default'}
                        </td>
                        <td className="py-1 pr-3 text-right tabular-nums">{r.attempts_per_problem}</td>
                        <td className="py-1 pr-3">{r.device}</td>
                        <td className="py-1 pr-3 text-right tabular-nums">{formatPercent(r.fast_p['0'])}</td>
                        <td className="py-1 pr-3 text-right tabular-nums">{formatPercent(r.fast_p['1'])}</td>
                        <td className="py-1 pr-3 text-right tabular-nums" data-testid="fast-1-point">
                          {formatPercent(r.fast_p_point['1'])}
                        </td>
                        <td className="py-1 pr-3 text-right tabular-nums">{formatPercent(r.fast_p['2'])}</td>
                        <td className="py-1 pr-3 text-right tabular-nums">{formatSpeedup(r.geomean_speedup)}</td>
                        <td className="py-1 pr-3">
                          <AppLink href={`/sweeps/${r.sweep_id}`}>{r.sweep_name}</AppLink>
                          {r.sweeps > 1 ? <span className="text-xs text-slate-500"> (best of {r.sweeps})</span> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )
          }
        </QueryState>
      </Card>
    </>
  );
}
