// An empty list, designed: a small drawing, what is missing in one line, a sentence, and the next thing to do.
import type { ReactNode } from 'react';
import { AppLink } from './AppLink';
import { buttonClass } from './Button';

export type EmptyIcon =
  | 'sessions'
  | 'attempts'
  | 'submissions'
  | 'leaderboard'
  | 'tokens'
  | 'review'
  | 'search'
  | 'sweeps';

/** Simple line drawings (24 x 24, stroked in the current colour). */
const PATHS: Record<EmptyIcon, ReactNode> = {
  sessions: (
    <>
      <rect x="3" y="4" width="18" height="14" rx="2" />
      <path d="m7 9 3 2.5L7 14M12.5 14H17" />
    </>
  ),
  attempts: (
    <>
      <path d="M4 20V4M4 20h16" />
      <path d="m7 15 4-4 3 3 5-6" />
    </>
  ),
  submissions: (
    <>
      <path d="M12 15V4m0 0L7.5 8.5M12 4l4.5 4.5" />
      <path d="M4 14v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4" />
    </>
  ),
  leaderboard: (
    <>
      <path d="M8 21h8M12 17v4M7 4h10v5a5 5 0 0 1-10 0V4Z" />
      <path d="M7 6H4v1a3 3 0 0 0 3 3M17 6h3v1a3 3 0 0 1-3 3" />
    </>
  ),
  tokens: (
    <>
      <circle cx="8" cy="15" r="4" />
      <path d="m11 12 9-9M17 6l2 2M15 8l2 2" />
    </>
  ),
  review: (
    <>
      <path d="M5 21V4M5 4h11l-2 4 2 4H5" />
      <path d="m13 18 2 2 4-4" />
    </>
  ),
  search: (
    <>
      <circle cx="11" cy="11" r="6" />
      <path d="m20 20-4.5-4.5M8.5 11h5" />
    </>
  ),
  sweeps: (
    <>
      <path d="M4 18h16M4 14h10M4 10h13M4 6h7" />
    </>
  ),
};

/** A link to another page; `focus`: the id of a field on this page to scroll to and focus (a form above); or a click. */
export type EmptyAction =
  | { label: string; href: string }
  | { label: string; focus: string }
  | { label: string; onClick: () => void };

const FOCUSABLE = 'textarea, input, select, button, [contenteditable="true"], [tabindex]';

/** Scrolls to the element and focuses it, or the first field inside it (an editor's wrapper, say). */
function focusField(id: string) {
  const el = document.getElementById(id);
  if (!el) return;
  const target = el.matches(FOCUSABLE) ? el : (el.querySelector<HTMLElement>(FOCUSABLE) ?? el);
  el.scrollIntoView({ block: 'center', behavior: 'smooth' });
  target.focus({ preventScroll: true });
}

export function EmptyState({
  icon,
  title,
  children,
  action,
  testId,
}: {
  icon: EmptyIcon;
  /** One line: what is missing (a spec's exact empty text where it gives one). */
  title: string;
  /** One sentence: why, or what the next step gives. */
  children?: ReactNode;
  /** The next thing to do. */
  action?: EmptyAction | undefined;
  testId?: string;
}) {
  return (
    <div
      className="flex flex-col items-center px-4 py-8 text-center"
      data-testid={testId ?? 'empty-state'}
      data-empty={icon}
    >
      <span className="mb-3 flex h-12 w-12 items-center justify-center rounded-full bg-indigo-50 text-indigo-600 ring-8 ring-indigo-50/50 dark:bg-indigo-950/60 dark:text-indigo-300 dark:ring-indigo-950/30">
        <svg
          viewBox="0 0 24 24"
          className="h-6 w-6"
          fill="none"
          stroke="currentColor"
          strokeWidth={1.6}
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          {PATHS[icon]}
        </svg>
      </span>
      <p className="text-base font-semibold break-words text-slate-900 dark:text-white">{title}</p>
      {children ? <p className="mt-1 max-w-lg text-sm text-slate-600 dark:text-slate-400">{children}</p> : null}
      {action ? (
        <div className="mt-4">
          {'href' in action ? (
            <AppLink href={action.href} className={buttonClass('primary')}>
              {action.label}
            </AppLink>
          ) : (
            <button
              type="button"
              className={buttonClass('primary')}
              onClick={() => ('focus' in action ? focusField(action.focus) : action.onClick())}
            >
              {action.label}
            </button>
          )}
        </div>
      ) : null}
    </div>
  );
}
