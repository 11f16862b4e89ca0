// `/sessions` ('My sessions'): the signed-in user's sessions with status, problem and best time, 50 a page.
import { PAGE_SIZE } from '@kernelforge/sdk';
import { useState } from 'react';
import { AppLink } from '../components/AppLink';
import { Button, buttonClass } from '../components/Button';
import { Card } from '../components/Card';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { SessionList } from '../components/SessionList';
import { useSessions } from '../hooks/useSessions';

export default function MySessionsPage() {
  const [offset, setOffset] = useState(0);
  const sessions = useSessions(offset);
  const count = sessions.data?.count ?? 0;
  return (
    <>
      <PageHeader
        title="My sessions"
        subtitle="Every agent session you started, newest first."
        actions={
          <AppLink href="/kernels/generate-kernel" className={buttonClass('primary')}>
            New kernel
          </AppLink>
        }
      />
      <Card>
        <QueryState data={sessions.data} error={sessions.error} label="Loading sessions…">
          {(list) => <SessionList sessions={list.data} />}
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
