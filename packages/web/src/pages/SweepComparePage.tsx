// `/sweeps/compare?a=ID&b=ID`: two sweeps side by side: their fast_p curves overlaid and per-problem differences.
import type { Sweep } from '@kernelforge/sdk';
import { useSearch } from 'wouter';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { FastPCurve, FastPTable } from '../components/FastPCurve';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryError } from '../components/QueryState';
import { Spinner } from '../components/Spinner';
import { StatusBadge } from '../components/StatusBadge';
import { useSweep } from '../hooks/useSweeps';
import { formatSpeedup } from '../lib/format';

function cell(p: Sweep['problems'][number] | undefined): string {
  if (!p) return '—';
  if (p.status !== 'completed') return p.status;
  return p.correct ? formatSpeedup(p.speedup) : 'incorrect';
}

export default function SweepComparePage() {
  const params = new URLSearchParams(useSearch());
  const a = useSweep(params.get('a') ?? undefined);
  const b = useSweep(params.get('b') ?? undefined);
  const header = <PageHeader title="Compare sweeps" subtitle={<AppLink href="/sweeps">Sweeps</AppLink>} />;
  if (!params.get('a') || !params.get('b'))
    return (
      <>
        {header}
        <p className="text-sm">Pick two sweeps on the Sweeps page to compare them.</p>
      </>
    );
  if (a.error || b.error)
    return (
      <>
        {header}
        <QueryError error={a.error ?? b.error} />
      </>
    );
  if (!a.data || !b.data)
    return (
      <>
        {header}
        <Spinner label="Loading the sweeps…" />
      </>
    );
  const [sa, sb] = [a.data, b.data];
  const labelA = `A: ${sa.name}`;
  const labelB = `B: ${sb.name}`;
  const names = [...new Set([...sa.problems, ...sb.problems].map((p) => p.problem_name))];
  const find = (s: Sweep, n: string) => s.problems.find((p) => p.problem_name === n);
  return (
    <>
      {header}
      <div className="grid gap-6">
        <Card title="fast_p">
          <FastPTable
            series={[
              { label: labelA, fast_p: sa.fast_p },
              { label: labelB, fast_p: sb.fast_p },
            ]}
          />
          <div className="mt-4">
            <FastPCurve
              title="fast_p curves of both sweeps"
              series={[
                { label: labelA, fast_p: sa.fast_p },
                { label: labelB, fast_p: sb.fast_p },
              ]}
            />
          </div>
          <p className="mt-2 text-sm">
            <AppLink href={`/sweeps/${sa.id}`}>{labelA}</AppLink> <StatusBadge status={sa.status} /> ·{' '}
            <AppLink href={`/sweeps/${sb.id}`}>{labelB}</AppLink> <StatusBadge status={sb.status} />
          </p>
        </Card>
        <Card title="Per problem">
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm" aria-label="Per-problem differences">
              <thead>
                <tr className="text-left text-slate-600 dark:text-slate-400">
                  <th className="py-1 pr-3 font-medium">Problem</th>
                  <th className="py-1 pr-3 text-right font-medium">A</th>
                  <th className="py-1 pr-3 text-right font-medium">B</th>
                  <th className="py-1 pr-3 text-right font-medium">B / A</th>
                </tr>
              </thead>
              <tbody>
                {names.map((n) => {
                  const pa = find(sa, n);
                  const pb = find(sb, n);
                  const ratio = pa?.correct && pb?.correct && pa.speedup && pb.speedup ? pb.speedup / pa.speedup : null;
                  return (
                    <tr key={n} className="border-t border-slate-200 dark:border-slate-800">
                      <td className="py-1 pr-3">
                        <ProblemName name={n} narrow />
                      </td>
                      <td className="py-1 pr-3 text-right tabular-nums">{cell(pa)}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">{cell(pb)}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">
                        {ratio === null ? '—' : formatSpeedup(ratio)}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Card>
      </div>
    </>
  );
}
