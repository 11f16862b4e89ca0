// A diff (CodeMirror's merge views, loaded on first use), unified (the new source with the removed lines above what
// replaced them, 3 lines of context, longer unchanged runs folded: click to unfold) or side by side (the old source
// on the left, the new on the right), highlighted; a count of added and removed lines above it.
import { useEffect, useMemo, useRef } from 'react';
import { diffLines } from '../lib/diff';
import { useCodeMirror } from './code/useCodeMirror';

export function DiffView({
  before,
  after,
  label,
  language,
  layout = 'unified',
}: {
  before: string;
  after: string;
  label: string;
  language?: string;
  layout?: 'unified' | 'split';
}) {
  const cm = useCodeMirror();
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!cm || !host.current) return;
    const mount = layout === 'split' ? cm.mountSplitDiff : cm.mountUnifiedDiff;
    const view = mount(host.current, { before, after, label, language });
    return () => view.destroy();
  }, [cm, before, after, label, language, layout]);
  const lines = useMemo(() => diffLines(before, after), [before, after]);
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <div>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
        <span className="text-emerald-700 dark:text-emerald-400">+{added}</span>{' '}
        <span className="text-rose-700 dark:text-rose-400">−{removed}</span> lines
        {added + removed === 0 ? ' · identical' : ''}
      </p>
      <section
        aria-label={label}
        data-testid={layout === 'split' ? 'diff-split' : 'diff'}
        className={`kf-code kf-diff overflow-hidden rounded-md border border-slate-200 dark:border-slate-800 ${layout === 'split' ? 'kf-diff-split' : 'kf-diff-unified'}`}
      >
        {cm ? (
          <div ref={host} />
        ) : (
          <p className="bg-slate-50 px-3 py-2 text-xs text-slate-500 dark:bg-slate-950 dark:text-slate-400">
            Loading the diff…
          </p>
        )}
      </section>
    </div>
  );
}
