// The signed-in header: sections, theme, the user and logout; below the lg breakpoint the sections fold into a menu.
import type { User } from '@kernelforge/sdk';
import { useEffect, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { useAuthActions } from '../hooks/useAuthActions';
import { AppLink } from './AppLink';
import { Brand } from './Brand';
import { Button } from './Button';
import { ThemeToggle } from './ThemeToggle';
import { useNotices } from '../hooks/useNotices';

const LINKS = [
  { href: '/kernels/generate-kernel', label: 'New kernel', section: '/kernels' },
  { href: '/sessions', label: 'My sessions', section: '/sessions' },
  { href: '/kernels/submit', label: 'Submit', section: '/kernels/submit' },
  { href: '/leaderboard/', label: 'Leaderboard', section: '/leaderboard' },
  { href: '/sweeps', label: 'Sweeps', section: '/sweeps' },
  { href: '/agents', label: 'Agents', section: '/agents' },
  { href: '/tokens/', label: 'API tokens', section: '/tokens' },
];

const linkClass = (current: boolean, block = false) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${block ? 'block py-2.5' : ''} ${
    current
      ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200'
      : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
  }`;

export function NavBar({ user }: { user: User }) {
  const [location] = useLocation();
  const { logout } = useAuthActions();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const links = user.is_superuser ? [...LINKS, { href: '/admin', label: 'Admin', section: '/admin' }] : LINKS;
  // A session and its attempts (/kernels/{id}/...) belong to My sessions (as their breadcrumb says), not New kernel.
  const active = (section: string) =>
    section === '/kernels'
      ? location.startsWith('/kernels/generate-kernel')
      : section === '/sessions'
        ? location.startsWith('/sessions') ||
          (location.startsWith('/kernels/') &&
            !location.startsWith('/kernels/generate-kernel') &&
            !location.startsWith('/kernels/submit'))
        : location.startsWith(section);
  // A new page closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger.
  useEffect(() => setOpen(false), [location]);
  const name = user.display_name || user.full_name || user.email;
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex max-w-7xl items-center gap-x-6 px-4 py-3 sm:px-6">
        <Brand href="/kernels/generate-kernel" />
        <nav aria-label="Main" className="hidden gap-1 lg:flex">
          {links.map((link) => (
            <AppLink
              key={link.href}
              href={link.href}
              aria-current={active(link.section) ? 'page' : undefined}
              className={linkClass(active(link.section))}
            >
              {link.label}
            </AppLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <NoticesLink userId={user.id} />
          <ThemeToggle />
          <AppLink
            href="/account"
            className="hidden max-w-48 truncate rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 lg:inline dark:text-slate-300 dark:hover:bg-slate-800"
            aria-label={`Account: ${name}`}
          >
            {name}
          </AppLink>
          <Button size="sm" variant="ghost" className="hidden lg:inline-flex" onClick={() => void logout()}>
            Log out
          </Button>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={menuId}
            onClick={() => setOpen((o) => !o)}
            className="rounded-md p-2 text-slate-700 hover:bg-slate-100 lg:hidden dark:text-slate-200 dark:hover:bg-slate-800"
          >
            <span className="sr-only">Menu</span>
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="size-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
      </div>
      {open ? (
        <div id={menuId} className="border-t border-slate-200 px-4 pt-2 pb-4 lg:hidden dark:border-slate-800">
          <nav aria-label="Main menu" className="grid gap-1">
            {links.map((link) => (
              <AppLink
                key={link.href}
                href={link.href}
                aria-current={active(link.section) ? 'page' : undefined}
                className={linkClass(active(link.section), true)}
              >
                {link.label}
              </AppLink>
            ))}
            <AppLink href="/notices" className={linkClass(active('/notices'), true)}>
              Notices
            </AppLink>
            <AppLink href="/account" className={linkClass(active('/account'), true)}>
              Account ({name})
            </AppLink>
          </nav>
          <Button size="sm" variant="secondary" className="mt-3 w-full" onClick={() => void logout()}>
            Log out
          </Button>
        </div>
      ) : null}
    </header>
  );
}

/**
 * Notices, with how many are new on this browser. On a phone the header has no room for the word: only the count shows
 * there (when there is one), and the menu lists Notices.
 */
function NoticesLink({ userId }: { userId: string }) {
  const { fresh } = useNotices(userId);
  const badge = 'rounded-full bg-indigo-600 px-1.5 py-0.5 text-xs font-semibold text-white';
  return (
    <>
      <AppLink
        href="/notices"
        aria-label={fresh ? `Notices: ${fresh} new` : 'Notices'}
        className="hidden rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100 sm:inline dark:text-slate-300 dark:hover:bg-slate-800"
      >
        Notices
        {fresh ? (
          <span className={`ml-1 ${badge}`} data-testid="notices-new">
            {fresh}
          </span>
        ) : null}
      </AppLink>
      {fresh ? (
        <AppLink href="/notices" aria-label={`Notices: ${fresh} new`} className={`sm:hidden ${badge}`}>
          {fresh}
        </AppLink>
      ) : null}
    </>
  );
}
