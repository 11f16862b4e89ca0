// `/admin/status`: the job queue's depth, the devices, the runners and the jobs in flight.
import { useAdminStatus } from '../../hooks/useAdminStatus';
import { formatDate } from '../../lib/format';
import { Card } from '../Card';
import { DataTable } from '../DataTable';
import { JobsInFlight } from '../JobsInFlight';
import { QueryState } from '../QueryState';
import { StatusBadge } from '../StatusBadge';
import { AdminEmpty } from './AdminEmpty';

const DEPTHS = [
  ['queued', 'Waiting'],
  ['leased', 'In flight'],
  ['dead', 'Dead letters'],
] as const;

export function AdminStatus() {
  const status = useAdminStatus();
  return (
    <QueryState data={status.data} error={status.error} label="Loading status…">
      {(s) => {
        const depth = (st: string) => s.queue.filter((q) => q.status === st).reduce((n, q) => n + q.count, 0);
        return (
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Queue">
              <dl className="grid grid-cols-3 gap-3 text-sm" data-testid="queue-depth">
                {DEPTHS.map(([st, label]) => (
                  <div key={st}>
                    <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
                    <dd className="text-xl font-semibold tabular-nums">{depth(st)}</dd>
                  </div>
                ))}
              </dl>
              {s.queue.length ? (
                <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
                  {s.queue.map((q) => `${q.kind} ${q.status}: ${q.count}`).join(' · ')}
                </p>
              ) : null}
            </Card>
            <Card title="Devices">
              {s.devices.length === 0 ? (
                <AdminEmpty text="No device: start a runner." />
              ) : (
                s.devices.map((d) => (
                  <p key={d.id} className="flex flex-wrap items-center gap-2 py-1 text-sm">
                    <span className="font-mono text-xs">{d.id}</span>
                    <StatusBadge status={d.available ? 'active' : 'unavailable'} />
                    <span className="text-xs text-slate-500 dark:text-slate-400">
                      {d.runners} runner{d.runners === 1 ? '' : 's'}
                    </span>
                  </p>
                ))
              )}
            </Card>
            <Card title="Runners" className="lg:col-span-2">
              <DataTable
                testId="runners"
                rows={s.runners}
                rowKey={(r) => r.id}
                empty={<AdminEmpty text="No runner has registered." />}
                columns={[
                  {
                    id: 'runner',
                    header: 'Runner',
                    wide: true,
                    className: 'break-all',
                    cell: (r) => (
                      <>
                        {r.name}
                        {r.local ? <span className="ml-2 text-xs text-slate-500">in-process</span> : null}
                      </>
                    ),
                  },
                  {
                    id: 'devices',
                    header: 'Devices',
                    className: 'font-mono text-xs break-all',
                    cell: (r) => r.devices.join(', ') || '—',
                  },
                  { id: 'version', header: 'Version', cell: (r) => r.version ?? '—' },
                  {
                    id: 'last-seen',
                    header: 'Last seen',
                    className: 'text-xs',
                    cell: (r) => formatDate(r.last_seen_at),
                  },
                ]}
              />
            </Card>
            <Card title={`Jobs in flight (${s.in_flight.length})`} className="lg:col-span-2">
              <JobsInFlight jobs={s.in_flight} onChange={() => void status.mutate()} />
            </Card>
          </div>
        );
      }}
    </QueryState>
  );
}
