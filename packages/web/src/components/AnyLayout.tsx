// The layout for a page anyone may reach (the 404 page): the signed-in header for a signed-in user, else the public one.
import type { ReactNode } from 'react';
import { useCurrentUser } from '../hooks/useCurrentUser';
import { NavBar } from './NavBar';
import { PublicLayout } from './PublicLayout';

export function AnyLayout({ children }: { children: ReactNode }) {
  const { data: user } = useCurrentUser();
  if (!user) return <PublicLayout>{children}</PublicLayout>;
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <NavBar user={user} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {children}
      </main>
    </div>
  );
}
