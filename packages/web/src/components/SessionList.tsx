// A table of sessions (the caller's, or everybody's on the admin page).
import type { AgentSessionSummary } from '@kernelforge/sdk';
import { formatDate, formatMs } from '../lib/format';
import { AppLink } from './AppLink';
import { StatusBadge } from './StatusBadge';

export function SessionList({
  sessions,
  showOwner = false,
}: {
  sessions: readonly AgentSessionSummary[];
  showOwner?: boolean;
}) {
  if (sessions.length === 0) return <p className="py-4 text-sm text-slate-500 dark:text-slate-400">No sessions yet.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-slate-500 uppercase dark:text-slate-400">
          <tr>
            <th className="py-2 pr-4 font-medium">Session</th>
            <th className="py-2 pr-4 font-medium">Problem</th>
            {showOwner ? <th className="py-2 pr-4 font-medium">Owner</th> : null}
            <th className="py-2 pr-4 font-medium">Device</th>
            <th className="py-2 pr-4 font-medium">Status</th>
            <th className="py-2 pr-4 text-right font-medium">Attempts</th>
            <th className="py-2 pr-4 text-right font-medium">Best time</th>
            <th className="py-2 font-medium">Created</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id} className="border-t border-slate-100 dark:border-slate-800">
              <td className="py-2 pr-4">
                <AppLink href={`/kernels/${s.id}`}>{s.label || s.name}</AppLink>
                {s.deleted_at ? <span className="ml-2 text-xs text-rose-600 dark:text-rose-400">deleted</span> : null}
              </td>
              <td className="py-2 pr-4 font-mono text-xs">{s.problem_name}</td>
              {showOwner ? <td className="py-2 pr-4 font-mono text-xs">{s.owner_id}</td> : null}
              <td className="py-2 pr-4 font-mono text-xs">{s.device}</td>
              <td className="py-2 pr-4">
                <StatusBadge status={s.status} />
              </td>
              <td className="py-2 pr-4 text-right tabular-nums">{s.attempt_count}</td>
              <td className="py-2 pr-4 text-right tabular-nums">
                {formatMs(s.best_attempt?.evaluation_state?.benchmarking_result?.optimized_time)}
              </td>
              <td className="py-2 text-xs text-slate-500 dark:text-slate-400">{formatDate(s.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
