// `/sessions` ('My sessions'): the signed-in user's sessions with status, problem and best time, 50 a page;
// `/sessions?deleted=1` lists the deleted ones, each with Restore (deleting is a soft delete, and this is the way back).
import { type AgentSessionSummary, PAGE_SIZE } from '@kernelforge/sdk';
import { useState } from 'react';
import { toast } from 'sonner';
import { navigate } from 'wouter/use-browser-location';
import { AppLink } from '../components/AppLink';
import { Button, buttonClass } from '../components/Button';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { SessionList } from '../components/SessionList';
import { useAction } from '../hooks/useAction';
import { useQueryParam } from '../hooks/useQueryParam';
import { useDeletedSessionCount, useSessionListMutations, useSessions } from '../hooks/useSessions';

export default function MySessionsPage() {
  const [deletedParam] = useQueryParam('deleted');
  const deleted = deletedParam === '1';
  const [offset, setOffset] = useState(0);
  const sessions = useSessions(offset, deleted);
  const deletedCount = useDeletedSessionCount();
  const count = sessions.data?.count ?? 0;
  return (
    <>
      <PageHeader
        title={deleted ? 'Deleted sessions' : 'My sessions'}
        subtitle={
          deleted
            ? 'Sessions you deleted, newest first. Restore one to see it and work on it again.'
            : 'Every agent session you started, newest first.'
        }
        actions={
          <AppLink href="/kernels/generate-kernel" className={buttonClass('primary')}>
            New kernel
          </AppLink>
        }
      />
      <nav aria-label="Which sessions" className="mb-3 flex gap-1 text-sm">
        <ListTab href="/sessions" current={!deleted} onClick={() => setOffset(0)}>
          Sessions
        </ListTab>
        <ListTab href="/sessions?deleted=1" current={deleted} onClick={() => setOffset(0)}>
          Deleted{deletedCount ? ` (${deletedCount})` : ''}
        </ListTab>
      </nav>
      <Card>
        <QueryState data={sessions.data} error={sessions.error} label="Loading sessions…">
          {(list) =>
            deleted ? (
              <SessionList
                sessions={list.data}
                rowAction={(s) => <RestoreButton session={s} />}
                empty={
                  <EmptyState
                    icon="sessions"
                    title="No deleted sessions"
                    action={{ label: 'Back to sessions', href: '/sessions' }}
                  >
                    A session you delete is listed here, and can be restored from here.
                  </EmptyState>
                }
              />
            ) : (
              <SessionList
                sessions={list.data}
                empty={
                  deletedCount ? (
                    <EmptyState
                      icon="sessions"
                      title="No active sessions"
                      action={{
                        label: `Show deleted sessions (${deletedCount})`,
                        href: '/sessions?deleted=1',
                      }}
                    >
                      Every session you started is deleted. Restore one from the deleted list, or start a new one.
                    </EmptyState>
                  ) : undefined
                }
              />
            )
          }
        </QueryState>
        {count > PAGE_SIZE ? (
          <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
            <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
              Previous
            </Button>
            <span className="text-slate-600 dark:text-slate-400">
              {offset + 1}–{Math.min(offset + PAGE_SIZE, count)} of {count}
            </span>
            <Button size="sm" disabled={offset + PAGE_SIZE >= count} onClick={() => setOffset(offset + PAGE_SIZE)}>
              Next
            </Button>
          </nav>
        ) : null}
      </Card>
    </>
  );
}

function ListTab({
  href,
  current,
  onClick,
  children,
}: {
  href: string;
  current: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <AppLink
      href={href}
      onClick={onClick}
      aria-current={current ? 'page' : undefined}
      className={`rounded-md px-3 py-1.5 font-medium ${
        current
          ? 'bg-indigo-50 text-indigo-800 dark:bg-indigo-950/60 dark:text-indigo-200'
          : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
      }`}
    >
      {children}
    </AppLink>
  );
}

function RestoreButton({ session }: { session: AgentSessionSummary }) {
  const { busy, run } = useAction();
  const { restore } = useSessionListMutations();
  return (
    <Button
      size="sm"
      variant="primary"
      disabled={busy}
      aria-label={`Restore ${session.label || session.name}`}
      onClick={() =>
        void run(async () => {
          await restore(session.id);
          toast.success('Session restored', {
            action: { label: 'Open', onClick: () => navigate(`/kernels/${session.id}`) },
          });
        }, 'Failed to restore the session')
      }
    >
      Restore
    </Button>
  );
}
