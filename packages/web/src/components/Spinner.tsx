// A small busy indicator with a label for screen readers.
export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 py-6 text-sm text-slate-500 dark:text-slate-400">
      <span
        aria-hidden="true"
        className="size-4 motion-safe:animate-spin rounded-full border-2 border-slate-300 border-t-indigo-600 dark:border-slate-700 dark:border-t-indigo-400"
      />
      <span>{label}</span>
    </div>
  );
}
