// A unified line diff, added and removed lines marked by colour and by sign.
import { useMemo } from 'react';
import { diffLines } from '../lib/diff';

export function DiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <div>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="text-emerald-700 dark:text-emerald-400">+{added}</span>{' '}
        <span className="text-rose-700 dark:text-rose-400">−{removed}</span> lines
      </p>
      <pre
        aria-label={label}
        tabIndex={0}
        className="max-h-[36rem] overflow-auto rounded-md border border-slate-200 bg-slate-50 py-2 font-mono text-xs leading-5 dark:border-slate-800 dark:bg-slate-950"
      >
        {lines.map((line, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff is rendered whole, never reordered.
            key={i}
            className={
              line.kind === 'added'
                ? 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950/70 dark:text-emerald-100'
                : line.kind === 'removed'
                  ? 'bg-rose-100 text-rose-900 dark:bg-rose-950/70 dark:text-rose-100'
                  : 'text-slate-700 dark:text-slate-300'
            }
          >
            <span aria-hidden="true" className="inline-block w-6 pl-2 select-none">
              {line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '}
            </span>
            {line.text || ' '}
          </div>
        ))}
      </pre>
    </div>
  );
}
