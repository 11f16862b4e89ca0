// `/admin/users`, `/admin/review`, `/admin/status`, `/admin/outbox`: the admin's pages beside 'All sessions'
// (`/admin/`), for superusers: search users, make superusers, deactivate accounts; flagged results approved into the
// ranking or rejected with a reason; runners, devices and the job queue; the mail outbox (mails kept when no SMTP
// server is configured, sign-up and sign-in links included). Each section is its own component in components/admin.
import { AdminNav } from '../components/AdminNav';
import { AdminOutbox } from '../components/admin/AdminOutbox';
import { AdminReview } from '../components/admin/AdminReview';
import { AdminStatus } from '../components/admin/AdminStatus';
import { AdminUsers } from '../components/admin/AdminUsers';
import { NotFoundFallback } from '../components/NotFoundFallback';
import { PageHeader } from '../components/PageHeader';
import { useUser } from '../components/SignedInLayout';
import type { PageProps } from '../lib/matchPath';
import { ADMIN_REFUSAL } from './AdminPage';

const SECTIONS = {
  users: 'Users',
  review: 'Review queue',
  status: 'Runners and queue',
  outbox: 'Mail outbox',
} as const;
type Section = keyof typeof SECTIONS;

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
            <AdminUsers />
          ) : section === 'review' ? (
            <AdminReview />
          ) : section === 'status' ? (
            <AdminStatus />
          ) : (
            <AdminOutbox />
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
