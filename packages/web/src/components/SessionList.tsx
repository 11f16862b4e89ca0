// A table of sessions (the caller's, or everybody's on the admin page).
import { type AgentSessionSummary, rankingTime } from '@kernelforge/sdk';
import type { ReactNode } from 'react';
import { formatDate, formatMs } from '../lib/format';
import { stacked } from '../lib/stackedTable';
import { AppLink } from './AppLink';
import { EmptyState } from './EmptyState';
import { ProblemName } from './ProblemName';
import { StatusBadge } from './StatusBadge';

export function SessionList({
  sessions,
  showOwner = false,
  owners,
  empty,
  rowAction,
}: {
  sessions: readonly AgentSessionSummary[];
  showOwner?: boolean;
  /** Owner id to the email (and name) superusers see in place of the id. */
  owners?: Record<string, string>;
  /** What an empty list shows (default: no sessions yet, with a link to start one). */
  empty?: ReactNode;
  /** A control at the end of each row (Restore, on the deleted list). */
  rowAction?: (session: AgentSessionSummary) => ReactNode;
}) {
  if (sessions.length === 0)
    return (
      empty ?? (
        <EmptyState
          icon="sessions"
          title="No sessions yet"
          action={{ label: 'Start a session', href: '/kernels/generate-kernel' }}
        >
          Pick a problem and a device, and an agent writes, checks and times kernels for it.
        </EmptyState>
      )
    );
  return (
    <div>
      <table className={stacked.table} data-testid="sessions">
        <thead className={stacked.thead}>
          <tr>
            <th className={stacked.th}>Session</th>
            <th className={stacked.th}>Problem</th>
            {showOwner ? <th className={stacked.th}>Owner</th> : null}
            <th className={stacked.th}>Device</th>
            <th className={stacked.th}>Status</th>
            <th className={`${stacked.th} text-right`}>Attempts</th>
            <th className={`${stacked.th} text-right`}>Best time</th>
            <th className={stacked.th}>Created</th>
            {rowAction ? (
              <th className={stacked.th}>
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className={stacked.tbody}>
          {sessions.map((s) => (
            <tr key={s.id} data-testid="session-row" className={stacked.row}>
              <td className={`${stacked.cell} ${stacked.wide}`}>
                <AppLink href={`/kernels/${s.id}`}>{s.label || s.name}</AppLink>
                {s.deleted_at ? (
                  <span className="ml-2 text-xs text-rose-700 dark:text-rose-300" title={formatDate(s.deleted_at)}>
                    deleted {formatDate(s.deleted_at)}
                  </span>
                ) : null}
              </td>
              <td data-label="Problem" className={`${stacked.cell} text-xs`}>
                <ProblemName name={s.problem_name} />
              </td>
              {showOwner ? (
                <td data-label="Owner" className={`${stacked.cell} text-xs break-all`}>
                  {owners?.[s.owner_id] ?? <span className="font-mono">{s.owner_id}</span>}
                </td>
              ) : null}
              <td data-label="Device" className={`${stacked.cell} font-mono text-xs`}>
                {s.device}
              </td>
              <td data-label="Status" className={stacked.cell}>
                <StatusBadge status={s.status} />
              </td>
              <td data-label="Attempts" className={`${stacked.cell} ${stacked.num}`}>
                {s.attempt_count}
              </td>
              <td data-label="Best time" className={`${stacked.cell} ${stacked.num}`}>
                {formatMs(s.best_attempt ? rankingTime(s.best_attempt) : undefined)}
              </td>
              <td data-label="Created" className={`${stacked.cell} text-xs text-slate-500 dark:text-slate-400`}>
                {formatDate(s.created_at)}
              </td>
              {rowAction ? <td className={stacked.cell}>{rowAction(s)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
