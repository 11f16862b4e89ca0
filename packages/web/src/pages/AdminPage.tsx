// `/admin` ('Admin Dashboard') with its child 'All sessions': every session, by owner and problem, 50 a page.
import { PAGE_SIZE } from '@kernelforge/sdk';
import { useState } from 'react';
import { AdminNav } from '../components/AdminNav';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { SelectField } from '../components/fields';
import { PageHeader } from '../components/PageHeader';
import { problemLabel } from '../lib/problemName';
import { QueryState } from '../components/QueryState';
import { SessionList } from '../components/SessionList';
import { useUser } from '../components/SignedInLayout';
import { useAllSessions } from '../hooks/useAllSessions';
import { useProblems } from '../hooks/useProblems';
import { useUsers } from '../hooks/useUsers';

export const ADMIN_REFUSAL = 'Only administrators can open the admin dashboard.';

function AllSessions() {
  const [ownerId, setOwnerId] = useState('');
  const [problemName, setProblemName] = useState('');
  const [offset, setOffset] = useState(0);
  const sessions = useAllSessions({ offset, ownerId, problemName });
  const users = useUsers();
  const problems = useProblems();
  const count = sessions.data?.count ?? 0;
  const owners = Object.fromEntries(
    (users.data?.data ?? []).map((u) => [u.id, u.full_name ? `${u.full_name} <${u.email}>` : u.email]),
  );
  return (
    <Card title="All sessions">
      <div className="mb-4 grid gap-4 sm:grid-cols-2 lg:w-2/3">
        <SelectField
          label="Owner"
          value={ownerId}
          onChange={(e) => {
            setOwnerId(e.target.value);
            setOffset(0);
          }}
        >
          <option value="">Everybody</option>
          {(users.data?.data ?? []).map((u) => (
            <option key={u.id} value={u.id}>
              {u.full_name ? `${u.full_name} <${u.email}>` : u.email}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Problem"
          value={problemName}
          onChange={(e) => {
            setProblemName(e.target.value);
            setOffset(0);
          }}
        >
          <option value="">Every problem</option>
          {(problems.data?.data ?? []).map((p) => (
            <option key={p.name} value={p.name}>
              {problemLabel(p.name, p.title)}
            </option>
          ))}
        </SelectField>
      </div>
      <QueryState data={sessions.data} error={sessions.error}>
        {(list) => (
          <SessionList
            sessions={list.data}
            showOwner
            owners={owners}
            empty={
              ownerId || problemName ? (
                <EmptyState
                  icon="search"
                  title="No session matches these filters"
                  action={{
                    label: 'Show every session',
                    onClick: () => {
                      setOwnerId('');
                      setProblemName('');
                      setOffset(0);
                    },
                  }}
                >
                  Nobody has started a session for this owner and problem.
                </EmptyState>
              ) : (
                <EmptyState
                  icon="sessions"
                  title="No sessions yet"
                  action={{ label: 'Start a session', href: '/kernels/generate-kernel' }}
                >
                  Nobody has started an agent session on this server yet.
                </EmptyState>
              )
            }
          />
        )}
      </QueryState>
      {/* Previous and Next only when there is more than one page; then each is disabled at its end. */}
      <nav aria-label="Pages" className="mt-4 flex items-center gap-3 text-sm">
        {count > PAGE_SIZE ? (
          <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
            Previous
          </Button>
        ) : null}
        <span className="text-slate-600 dark:text-slate-400" data-testid="page-range">
          {count === 0 ? '0' : `${offset + 1}–${Math.min(offset + PAGE_SIZE, count)}`} of {count}
        </span>
        {count > PAGE_SIZE ? (
          <Button size="sm" disabled={offset + PAGE_SIZE >= count} onClick={() => setOffset(offset + PAGE_SIZE)}>
            Next
          </Button>
        ) : null}
      </nav>
    </Card>
  );
}

export default function AdminPage() {
  const user = useUser();
  return (
    <>
      <PageHeader title="Admin Dashboard" />
      {user.is_superuser ? (
        <>
          <AdminNav />
          <AllSessions />
        </>
      ) : (
        <p
          role="alert"
          className="rounded-md bg-amber-50 px-4 py-3 text-amber-900 dark:bg-amber-950/50 dark:text-amber-100"
        >
          {ADMIN_REFUSAL}
        </p>
      )}
    </>
  );
}
