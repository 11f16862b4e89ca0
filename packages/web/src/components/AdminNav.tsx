// The admin's pages: 'All sessions' (`/admin/`, the spec's) and its siblings.
import { useLocation } from 'wouter';
import { AppLink } from './AppLink';

export const ADMIN_PAGES = [
  ['/admin/', 'All sessions'],
  ['/admin/users', 'Users'],
  ['/admin/review', 'Review queue'],
  ['/admin/status', 'Runners and queue'],
  ['/admin/outbox', 'Mail outbox'],
] as const;

export function AdminNav() {
  const [location] = useLocation();
  const here = location === '/admin' ? '/admin/' : location;
  return (
    <nav aria-label="Admin pages" className="mb-6 flex flex-wrap gap-1 text-sm">
      {ADMIN_PAGES.map(([href, label]) => (
        <AppLink
          key={href}
          href={href}
          aria-current={here === href ? 'page' : undefined}
          className={`rounded-md px-3 py-1.5 font-medium ${
            here === href
              ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200'
              : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
          }`}
        >
          {label}
        </AppLink>
      ))}
    </nav>
  );
}
