// The one-line note an admin section shows when it has nothing to list.
export function AdminEmpty({ text }: { text: string }) {
  return <p className="py-3 text-sm text-slate-500 dark:text-slate-400">{text}</p>;
}
