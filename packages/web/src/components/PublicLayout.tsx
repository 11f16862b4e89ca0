// The public layout: login, email verification and magic-link pages.
import type { ReactNode } from 'react';
import { Brand } from './Brand';
import { ThemeToggle } from './ThemeToggle';

export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-gradient-to-b from-indigo-50 to-white dark:from-slate-900 dark:to-slate-950">
      <header className="mx-auto flex max-w-5xl items-center justify-between px-6 py-4">
        <Brand />
        <ThemeToggle />
      </header>
      <main id="main" className="mx-auto max-w-5xl px-6 pb-16">
        {children}
      </main>
    </div>
  );
}
