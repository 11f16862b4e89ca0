// `/sweeps/compare?a=ID&b=ID`: two sweeps side by side: their fast_p curves overlaid and per-problem differences.
import type { Sweep } from '@kernelforge/sdk';
import { useSearch } from 'wouter';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { DataTable } from '../components/DataTable';
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
            <DataTable
              variant="compact"
              ariaLabel="Per-problem differences"
              rows={names}
              rowKey={(n) => n}
              columns={[
                { id: 'problem', header: 'Problem', cell: (n) => <ProblemName name={n} narrow /> },
                { id: 'a', header: 'A', align: 'right', cell: (n) => cell(find(sa, n)) },
                { id: 'b', header: 'B', align: 'right', cell: (n) => cell(find(sb, n)) },
                {
                  id: 'ratio',
                  header: 'B / A',
                  align: 'right',
                  cell: (n) => {
                    const pa = find(sa, n);
                    const pb = find(sb, n);
                    const ratio =
                      pa?.correct && pb?.correct && pa.speedup && pb.speedup ? pb.speedup / pa.speedup : null;
                    return ratio === null ? '—' : formatSpeedup(ratio);
                  },
                },
              ]}
            />
          </div>
        </Card>
      </div>
    </>
  );
}
