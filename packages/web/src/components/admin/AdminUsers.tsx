// `/admin/users`: search users, make or unmake superusers, deactivate and reactivate accounts.
import type { User } from '@kernelforge/sdk';
import { useState } from 'react';
import { useAction } from '../../hooks/useAction';
import { useQueryParam } from '../../hooks/useQueryParam';
import { useUpdateUser, useUserSearch } from '../../hooks/useUsers';
import { Button } from '../Button';
import { Card } from '../Card';
import { ConfirmButton } from '../ConfirmButton';
import { DataTable } from '../DataTable';
import { EmptyState } from '../EmptyState';
import { controlClass } from '../fields';
import { QueryState } from '../QueryState';
import { useUser } from '../SignedInLayout';
import { StatusBadge } from '../StatusBadge';

type Change = { is_superuser?: boolean; is_active?: boolean };

function UserActions({
  user,
  busy,
  change,
}: {
  user: User;
  busy: boolean;
  change: (u: User, body: Change, done: string) => Promise<void>;
}) {
  return (
    <span className="flex flex-wrap gap-2">
      <Button
        size="sm"
        disabled={busy}
        onClick={() =>
          void change(
            user,
            { is_superuser: !user.is_superuser },
            user.is_superuser ? 'No longer a superuser' : 'Now a superuser',
          )
        }
      >
        {user.is_superuser ? 'Remove superuser' : 'Make superuser'}
      </Button>
      {user.is_active ? (
        <ConfirmButton
          size="sm"
          variant="danger"
          disabled={busy}
          question={`Deactivate ${user.email}? They cannot sign in or use their tokens until reactivated.`}
          confirmLabel="Deactivate"
          onConfirm={() => change(user, { is_active: false }, 'Account deactivated')}
        >
          Deactivate
        </ConfirmButton>
      ) : (
        <Button size="sm" disabled={busy} onClick={() => void change(user, { is_active: true }, 'Account reactivated')}>
          Reactivate
        </Button>
      )}
    </span>
  );
}

export function AdminUsers() {
  const me = useUser();
  const [q, setQ] = useQueryParam('q');
  const [typed, setTyped] = useState(q);
  const list = useUserSearch(q);
  const updateUser = useUpdateUser();
  const { busy, run } = useAction();
  async function change(u: User, body: Change, done: string) {
    await run(() => updateUser(u, body), 'Failed to change the user', done);
  }
  return (
    <Card title="Users">
      <form
        className="mb-4 flex max-w-lg flex-wrap gap-2"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed.trim());
        }}
      >
        <label htmlFor="user-search" className="sr-only">
          Search users
        </label>
        <input
          id="user-search"
          type="search"
          className={`${controlClass} min-w-0 flex-1`}
          placeholder="Email, name or handle"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <Button type="submit" variant="primary">
          Search
        </Button>
      </form>
      <QueryState data={list.data} error={list.error} label="Loading users…">
        {(page) =>
          page.data.length === 0 ? (
            q ? (
              <EmptyState
                icon="search"
                title={`No user matches “${q}”`}
                action={{
                  label: 'Show every user',
                  onClick: () => {
                    setTyped('');
                    setQ('');
                  },
                }}
              >
                The search looks in emails, names and handles; try part of one.
              </EmptyState>
            ) : (
              <EmptyState icon="search" title="No users yet">
                People who sign up show here.
              </EmptyState>
            )
          ) : (
            <>
              <DataTable
                testId="admin-users"
                rows={page.data}
                rowKey={(u) => u.id}
                rowTestId="admin-user"
                columns={[
                  {
                    id: 'user',
                    header: 'User',
                    wide: true,
                    className: 'break-all',
                    cell: (u) => (
                      <>
                        {u.email}
                        {u.full_name ? (
                          <span className="block text-xs text-slate-500 dark:text-slate-400">{u.full_name}</span>
                        ) : null}
                      </>
                    ),
                  },
                  {
                    id: 'shown-as',
                    header: 'Shown as',
                    className: 'break-all',
                    cell: (u) => u.display_name || u.full_name || u.handle || '—',
                  },
                  { id: 'role', header: 'Role', cell: (u) => (u.is_superuser ? 'superuser' : 'user') },
                  {
                    id: 'account',
                    header: 'Account',
                    cell: (u) => <StatusBadge status={u.is_active ? 'active' : 'deactivated'} />,
                  },
                  {
                    id: 'actions',
                    header: 'Actions',
                    wide: true,
                    cell: (u) =>
                      u.id === me.id ? (
                        <span className="text-xs text-slate-500 dark:text-slate-400">you</span>
                      ) : (
                        <UserActions user={u} busy={busy} change={change} />
                      ),
                  },
                ]}
              />
              <p className="pt-2 text-xs text-slate-500 dark:text-slate-400">
                {page.count > page.data.length
                  ? `The first ${page.data.length} of ${page.count}: search to narrow them.`
                  : `${page.count} user${page.count === 1 ? '' : 's'}`}
              </p>
            </>
          )
        }
      </QueryState>
    </Card>
  );
}
