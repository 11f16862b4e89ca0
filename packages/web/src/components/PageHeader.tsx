// A page's title (also the document title) with optional actions beside it.
import type { ReactNode } from 'react';
import { usePageTitle } from '../hooks/usePageTitle';

export function PageHeader({
  title,
  heading,
  subtitle,
  actions,
}: {
  title: string;
  /** What the h1 shows when it is more than the plain title (a problem's name, say); `title` stays the tab's. */
  heading?: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight break-words text-slate-900 dark:text-white">
          {heading ?? title}
        </h1>
        {subtitle ? <div className="mt-1 text-sm text-slate-600 dark:text-slate-400">{subtitle}</div> : null}
      </div>
      {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
    </div>
  );
}
