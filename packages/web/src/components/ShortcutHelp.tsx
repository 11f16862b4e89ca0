// `?` lists the keyboard shortcuts; Escape or Close puts the list away.
import { useEffect, useRef, useState } from 'react';
import { useShortcuts } from '../hooks/useShortcut';
import { Button } from './Button';

export const SHORTCUTS: readonly (readonly [string, string])[] = [
  ['j', 'next attempt (on an attempt page)'],
  ['k', 'previous attempt (on an attempt page)'],
  ['?', 'this list of shortcuts'],
  ['Esc', 'close this list'],
];

export function ShortcutHelp() {
  const [open, setOpen] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  useShortcuts({ '?': () => setOpen((o) => !o), Escape: open ? () => setOpen(false) : undefined });
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40 p-4">
      <div
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcut-help-title"
        className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-5 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        <h2 id="shortcut-help-title" className="text-base font-semibold text-slate-900 dark:text-white">
          Keyboard shortcuts
        </h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map(([key, what]) => (
            <div key={key} className="contents">
              <dt>
                <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-800">
                  {key}
                </kbd>
              </dt>
              <dd className="text-slate-700 dark:text-slate-300">{what}</dd>
            </div>
          ))}
        </dl>
        <Button ref={closeRef} size="sm" className="mt-4" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
    </div>
  );
}
