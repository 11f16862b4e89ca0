// Unified or side-by-side diff, kept in the address (?view=split) so a copied link opens the same layout.
import { useQueryParam } from '../hooks/useQueryParam';

export type DiffLayout = 'unified' | 'split';

/** The layout the address asks for, and a setter that replaces the address. */
export function useDiffLayout(): [DiffLayout, (layout: DiffLayout) => void] {
  const [view, setView] = useQueryParam('view');
  return [view === 'split' ? 'split' : 'unified', (layout) => setView(layout === 'split' ? 'split' : '')];
}

export function DiffLayoutTabs({ layout, onChange }: { layout: DiffLayout; onChange: (layout: DiffLayout) => void }) {
  return (
    <div role="tablist" aria-label="Diff layout" className="flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
      {(
        [
          ['unified', 'Unified'],
          ['split', 'Side by side'],
        ] as const
      ).map(([id, label]) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={layout === id}
          onClick={() => onChange(id)}
          className={`rounded-md px-3 py-1 text-sm font-medium ${
            layout === id
              ? 'bg-white text-slate-900 shadow dark:bg-slate-950 dark:text-white'
              : 'text-slate-600 dark:text-slate-300'
          }`}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
