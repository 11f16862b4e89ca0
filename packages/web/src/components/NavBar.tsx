// The signed-in header: sections, theme, the user and logout.
import type { User } from '@kernelforge/sdk';
import { useLocation } from 'wouter';
import { useAuthActions } from '../hooks/useAuthActions';
import { AppLink } from './AppLink';
import { Brand } from './Brand';
import { Button } from './Button';
import { ThemeToggle } from './ThemeToggle';

const LINKS = [
  { href: '/kernels/generate-kernel', label: 'New kernel', section: '/kernels' },
  { href: '/kernels/submit', label: 'Submit', section: '/kernels/submit' },
  { href: '/leaderboard/', label: 'Leaderboard', section: '/leaderboard' },
  { href: '/tokens/', label: 'API tokens', section: '/tokens' },
];

export function NavBar({ user }: { user: User }) {
  const [location] = useLocation();
  const { logout } = useAuthActions();
  const links = user.is_superuser ? [...LINKS, { href: '/admin', label: 'Admin', section: '/admin' }] : LINKS;
  const active = (section: string) =>
    section === '/kernels'
      ? location.startsWith('/kernels') && !location.startsWith('/kernels/submit')
      : location.startsWith(section);
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <Brand href="/kernels/generate-kernel" />
        <nav aria-label="Main" className="flex flex-wrap gap-1">
          {links.map((link) => (
            <AppLink
              key={link.href}
              href={link.href}
              aria-current={active(link.section) ? 'page' : undefined}
              className={`rounded-md px-3 py-1.5 text-sm font-medium ${
                active(link.section)
                  ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-200'
                  : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
              }`}
            >
              {link.label}
            </AppLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <ThemeToggle />
          <span
            className="hidden max-w-48 truncate text-sm text-slate-600 sm:inline dark:text-slate-300"
            title={user.email}
          >
            {user.full_name || user.email}
          </span>
          <Button size="sm" variant="ghost" onClick={() => void logout()}>
            Log out
          </Button>
        </div>
      </div>
    </header>
  );
}
