// `/admin/users`, `/admin/review`, `/admin/status`, `/admin/outbox`: the admin's pages beside 'All sessions'
// (`/admin/`), for superusers: search users, make superusers, deactivate accounts; flagged results approved into the
// ranking or rejected with a reason; runners, devices and the job queue; the mail outbox (mails kept when no SMTP
// server is configured, sign-up and sign-in links included).
import type { ReviewItem, User } from '@kernelforge/sdk';
import { useState } from 'react';
import useSWR from 'swr';
import { AdminNav } from '../components/AdminNav';
import { AppLink } from '../components/AppLink';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { ConfirmButton } from '../components/ConfirmButton';
import { EmptyState } from '../components/EmptyState';
import { JobsInFlight } from '../components/JobsInFlight';
import { controlClass } from '../components/fields';
import { NotFoundFallback } from '../components/NotFoundFallback';
import { PageHeader } from '../components/PageHeader';
import { ProblemName } from '../components/ProblemName';
import { QueryState } from '../components/QueryState';
import { useUser } from '../components/SignedInLayout';
import { StatusBadge } from '../components/StatusBadge';
import { keys } from '../hooks/keys';
import { useAction } from '../hooks/useAction';
import { useQueryParam } from '../hooks/useQueryParam';
import { api } from '../lib/client';
import { formatDate, formatMs, formatSpeedup } from '../lib/format';
import type { PageProps } from '../lib/matchPath';
import { stacked } from '../lib/stackedTable';
import { ADMIN_REFUSAL } from './AdminPage';

const SECTIONS = {
  users: 'Users',
  review: 'Review queue',
  status: 'Runners and queue',
  outbox: 'Mail outbox',
} as const;
type Section = keyof typeof SECTIONS;

const empty = (text: string) => <p className="py-3 text-sm text-slate-500 dark:text-slate-400">{text}</p>;

function Users() {
  const me = useUser();
  const [q, setQ] = useQueryParam('q');
  const [typed, setTyped] = useState(q);
  const list = useSWR(['admin-users', q], () => api().admin.users({ limit: 100, ...(q ? { q } : {}) }));
  const { busy, run } = useAction();
  async function change(u: User, body: { is_superuser?: boolean; is_active?: boolean }, done: string) {
    const updated = await run(() => api().admin.updateUser(u.id, body), 'Failed to change the user', done);
    if (updated) void list.mutate();
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
              <table className={stacked.table} data-testid="admin-users">
                <thead className={stacked.thead}>
                  <tr>
                    <th className={stacked.th}>User</th>
                    <th className={stacked.th}>Shown as</th>
                    <th className={stacked.th}>Role</th>
                    <th className={stacked.th}>Account</th>
                    <th className={stacked.th}>Actions</th>
                  </tr>
                </thead>
                <tbody className={stacked.tbody}>
                  {page.data.map((u) => (
                    <tr key={u.id} className={stacked.row} data-testid="admin-user">
                      <td className={`${stacked.cell} ${stacked.wide} break-all`}>
                        {u.email}
                        {u.full_name ? (
                          <span className="block text-xs text-slate-500 dark:text-slate-400">{u.full_name}</span>
                        ) : null}
                      </td>
                      <td data-label="Shown as" className={`${stacked.cell} break-all`}>
                        {u.display_name || u.full_name || u.handle || '—'}
                      </td>
                      <td data-label="Role" className={stacked.cell}>
                        {u.is_superuser ? 'superuser' : 'user'}
                      </td>
                      <td data-label="Account" className={stacked.cell}>
                        <StatusBadge status={u.is_active ? 'active' : 'deactivated'} />
                      </td>
                      <td className={`${stacked.cell} ${stacked.wide}`}>
                        {u.id === me.id ? (
                          <span className="text-xs text-slate-500 dark:text-slate-400">you</span>
                        ) : (
                          <span className="flex flex-wrap gap-2">
                            <Button
                              size="sm"
                              disabled={busy}
                              onClick={() =>
                                void change(
                                  u,
                                  { is_superuser: !u.is_superuser },
                                  u.is_superuser ? 'No longer a superuser' : 'Now a superuser',
                                )
                              }
                            >
                              {u.is_superuser ? 'Remove superuser' : 'Make superuser'}
                            </Button>
                            {u.is_active ? (
                              <ConfirmButton
                                size="sm"
                                variant="danger"
                                disabled={busy}
                                question={`Deactivate ${u.email}? They cannot sign in or use their tokens until reactivated.`}
                                confirmLabel="Deactivate"
                                onConfirm={() => change(u, { is_active: false }, 'Account deactivated')}
                              >
                                Deactivate
                              </ConfirmButton>
                            ) : (
                              <Button
                                size="sm"
                                disabled={busy}
                                onClick={() => void change(u, { is_active: true }, 'Account reactivated')}
                              >
                                Reactivate
                              </Button>
                            )}
                          </span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
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

function ReviewRow({ item, onDone }: { item: ReviewItem; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const { busy, run } = useAction();
  async function decide(decision: 'approve' | 'reject') {
    const done = await run(
      () => api().admin.review(item.submission_id, { decision, ...(reason.trim() ? { reason: reason.trim() } : {}) }),
      'Failed to record the decision',
      decision === 'approve' ? 'Approved into the ranking' : 'Rejected: out of the ranking',
    );
    if (done) onDone();
  }
  return (
    <li className="border-t border-slate-100 py-3 text-sm dark:border-slate-800" data-testid="review-item">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <AppLink href={`/leaderboard/submission/${item.submission_id}`}>
          <ProblemName name={item.problem_name} />
        </AppLink>
        <span className="font-mono text-xs">{item.device}</span>
        <span>{item.user.display_name}</span>
        <span className="tabular-nums">{formatMs(item.time_ms)}</span>
        <span className="tabular-nums">{formatSpeedup(item.speedup)}</span>
        {item.status !== 'pending' ? (
          <StatusBadge status={item.status === 'approved' ? 'accepted' : 'rejected'} />
        ) : null}
      </p>
      <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">⚑ {item.review_reasons.join('; ') || 'flagged'}</p>
      {item.status === 'pending' ? (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <label htmlFor={`reason-${item.submission_id}`} className="sr-only">
            Reason for the decision
          </label>
          <input
            id={`reason-${item.submission_id}`}
            className={`${controlClass} max-w-md min-w-0 flex-1 basis-56`}
            placeholder="Reason (required to reject)"
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.target.value)}
          />
          <Button size="sm" variant="primary" disabled={busy} onClick={() => void decide('approve')}>
            Approve
          </Button>
          <Button
            size="sm"
            variant="danger"
            disabled={busy || !reason.trim()}
            title={reason.trim() ? undefined : 'Give a reason to reject'}
            onClick={() => void decide('reject')}
          >
            Reject
          </Button>
        </div>
      ) : (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {item.status} {formatDate(item.reviewed_at)}
          {item.decision_reason ? `: ${item.decision_reason}` : ''}
        </p>
      )}
    </li>
  );
}

function Review() {
  const pending = useSWR('admin-reviews-pending', () => api().admin.reviews({ status: 'pending' }));
  const decided = useSWR('admin-reviews-decided', () => api().admin.reviews({ status: 'decided' }));
  const refresh = () => {
    void pending.mutate();
    void decided.mutate();
  };
  return (
    <div className="space-y-6">
      <Card title={`Waiting for review (${pending.data?.count ?? '…'})`}>
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          Flagged results rank below every unflagged one until approved; a rejected one leaves the rankings.
        </p>
        <QueryState data={pending.data} error={pending.error} label="Loading the queue…">
          {(page) =>
            page.data.length === 0 ? (
              <EmptyState
                icon="review"
                title="Nothing to review"
                action={{ label: 'See the leaderboards', href: '/leaderboard/' }}
                testId="review-empty"
              >
                No flagged result is waiting: every ranked result so far is in the rankings or decided.
              </EmptyState>
            ) : (
              <ul>
                {page.data.map((item) => (
                  <ReviewRow key={item.submission_id} item={item} onDone={refresh} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </Card>
      <Card title="Decided">
        <QueryState data={decided.data} error={decided.error} label="Loading decisions…">
          {(page) =>
            page.data.length === 0 ? (
              empty('No decision yet.')
            ) : (
              <ul data-testid="reviews-decided">
                {page.data.map((item) => (
                  <ReviewRow key={item.submission_id} item={item} onDone={refresh} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </Card>
    </div>
  );
}

function Status() {
  const status = useSWR('admin-status', () => api().admin.status(), { refreshInterval: 5000 });
  return (
    <QueryState data={status.data} error={status.error} label="Loading status…">
      {(s) => {
        const depth = (st: string) => s.queue.filter((q) => q.status === st).reduce((n, q) => n + q.count, 0);
        return (
          <div className="grid gap-6 lg:grid-cols-2">
            <Card title="Queue">
              <dl className="grid grid-cols-3 gap-3 text-sm" data-testid="queue-depth">
                {(
                  [
                    ['queued', 'Waiting'],
                    ['leased', 'In flight'],
                    ['dead', 'Dead letters'],
                  ] as const
                ).map(([st, label]) => (
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
              {s.devices.length === 0
                ? empty('No device: start a runner.')
                : s.devices.map((d) => (
                    <p key={d.id} className="flex flex-wrap items-center gap-2 py-1 text-sm">
                      <span className="font-mono text-xs">{d.id}</span>
                      <StatusBadge status={d.available ? 'active' : 'unavailable'} />
                      <span className="text-xs text-slate-500 dark:text-slate-400">
                        {d.runners} runner{d.runners === 1 ? '' : 's'}
                      </span>
                    </p>
                  ))}
            </Card>
            <Card title="Runners" className="lg:col-span-2">
              {s.runners.length === 0 ? (
                empty('No runner has registered.')
              ) : (
                <table className={stacked.table} data-testid="runners">
                  <thead className={stacked.thead}>
                    <tr>
                      <th className={stacked.th}>Runner</th>
                      <th className={stacked.th}>Devices</th>
                      <th className={stacked.th}>Version</th>
                      <th className={stacked.th}>Last seen</th>
                    </tr>
                  </thead>
                  <tbody className={stacked.tbody}>
                    {s.runners.map((r) => (
                      <tr key={r.id} className={stacked.row}>
                        <td className={`${stacked.cell} ${stacked.wide} break-all`}>
                          {r.name}
                          {r.local ? <span className="ml-2 text-xs text-slate-500">in-process</span> : null}
                        </td>
                        <td data-label="Devices" className={`${stacked.cell} font-mono text-xs break-all`}>
                          {r.devices.join(', ') || '—'}
                        </td>
                        <td data-label="Version" className={stacked.cell}>
                          {r.version ?? '—'}
                        </td>
                        <td data-label="Last seen" className={`${stacked.cell} text-xs`}>
                          {formatDate(r.last_seen_at)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
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

function Outbox() {
  const mails = useSWR(keys.outbox, () => api().admin.outbox());
  return (
    <Card title="Mail outbox">
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Without an SMTP server the mails the server would send (sign-up, sign-in links) are kept here, newest first.
      </p>
      <QueryState data={mails.data} error={mails.error} label="Loading mail…">
        {(page) =>
          page.data.length === 0
            ? empty('No mail kept: none was sent yet, or mail goes out through SMTP.')
            : page.data.map((m) => (
                <details
                  key={m.id}
                  className="border-t border-slate-100 py-2 text-sm dark:border-slate-800"
                  data-testid="mail"
                >
                  <summary className="cursor-pointer">
                    <span className="font-medium break-all">{m.to}</span> · {m.subject}{' '}
                    <span className="text-xs text-slate-500 dark:text-slate-400">{formatDate(m.created_at)}</span>
                  </summary>
                  <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-3 text-xs whitespace-pre-wrap break-all dark:bg-slate-950">
                    {m.text}
                  </pre>
                </details>
              ))
        }
      </QueryState>
    </Card>
  );
}

export default function AdminToolsPage({ params }: PageProps) {
  const user = useUser();
  const section = params.section as Section;
  if (!(section in SECTIONS)) return <NotFoundFallback up={{ href: '/admin/', label: 'Go to All sessions' }} />;
  return (
    <>
      <PageHeader title={SECTIONS[section]} subtitle="Admin Dashboard" />
      {user.is_superuser ? (
        <>
          <AdminNav />
          {section === 'users' ? (
            <Users />
          ) : section === 'review' ? (
            <Review />
          ) : section === 'status' ? (
            <Status />
          ) : (
            <Outbox />
          )}
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
