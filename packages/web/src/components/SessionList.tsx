// A table of sessions (the caller's, or everybody's on the admin page).
import { type AgentSessionSummary, rankingTime } from '@kernelforge/sdk';
import type { ReactNode } from 'react';
import { formatDate, formatMs } from '../lib/format';
import { AppLink } from './AppLink';
import { DataTable } from './DataTable';
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
      <DataTable
        testId="sessions"
        rows={sessions}
        rowKey={(s) => s.id}
        rowTestId="session-row"
        columns={[
          {
            id: 'session',
            header: 'Session',
            wide: true,
            cell: (s) => (
              <>
                <AppLink href={`/kernels/${s.id}`}>{s.label || s.name}</AppLink>
                {s.deleted_at ? (
                  <span className="ml-2 text-xs text-rose-700 dark:text-rose-300" title={formatDate(s.deleted_at)}>
                    deleted {formatDate(s.deleted_at)}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            id: 'problem',
            header: 'Problem',
            className: 'text-xs',
            cell: (s) => <ProblemName name={s.problem_name} />,
          },
          showOwner && {
            id: 'owner',
            header: 'Owner',
            className: 'text-xs break-all',
            cell: (s) => owners?.[s.owner_id] ?? <span className="font-mono">{s.owner_id}</span>,
          },
          { id: 'device', header: 'Device', className: 'font-mono text-xs', cell: (s) => s.device },
          { id: 'status', header: 'Status', cell: (s) => <StatusBadge status={s.status} /> },
          { id: 'attempts', header: 'Attempts', align: 'right', cell: (s) => s.attempt_count },
          {
            id: 'best-time',
            header: 'Best time',
            align: 'right',
            cell: (s) => formatMs(s.best_attempt ? rankingTime(s.best_attempt) : undefined),
          },
          {
            id: 'created',
            header: 'Created',
            className: 'text-xs text-slate-500 dark:text-slate-400',
            cell: (s) => formatDate(s.created_at),
          },
          rowAction && { id: 'actions', srHeader: 'Actions', cell: rowAction },
        ]}
      />
    </div>
  );
}
