// The fallback paragraph when nothing matches inside a page (spec section 2).
export function NotFoundFallback() {
  return <p className="py-6 text-slate-600 dark:text-slate-400">Not Found</p>;
}
