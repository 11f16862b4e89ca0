// `/notices` ('Notices'): what happened to your results lately (finished, flagged for review, approved, rejected),
// newest first; opening the page marks them seen on this browser.
import { useEffect } from 'react';
import { AppLink } from '../components/AppLink';
import { Card } from '../components/Card';
import { EmptyState } from '../components/EmptyState';
import { PageHeader } from '../components/PageHeader';
import { useUser } from '../components/SignedInLayout';
import { Spinner } from '../components/Spinner';
import { useNotices } from '../hooks/useNotices';
import { formatDate } from '../lib/format';

const TONE: Record<string, string> = {
  finished: 'text-slate-700 dark:text-slate-200',
  flagged: 'text-amber-800 dark:text-amber-200',
  approved: 'text-emerald-800 dark:text-emerald-200',
  rejected: 'text-rose-800 dark:text-rose-200',
};

export default function NoticesPage() {
  const user = useUser();
  const { notices, markSeen } = useNotices(user.id);
  useEffect(() => {
    if (notices) markSeen(notices);
  }, [notices, markSeen]);
  return (
    <>
      <PageHeader
        title="Notices"
        subtitle="What happened to your submissions in the last 30 days. A reviewer's decision is also mailed to you."
      />
      <Card>
        {!notices ? (
          <Spinner label="Loading notices…" />
        ) : notices.length === 0 ? (
          <EmptyState
            icon="submissions"
            title="No notices yet"
            action={{ label: 'Submit a solution', href: '/kernels/submit' }}
          >
            When a submission of yours finishes, is flagged for review or is decided on, it is said here.
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {notices.map((n) => (
              <li key={n.id} className="py-2 text-sm" data-testid="notice" data-kind={n.kind}>
                <p className={TONE[n.kind] ?? ''}>{n.text}</p>
                <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                  {formatDate(n.at)} · <AppLink href={n.href}>Open the submission</AppLink>
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
