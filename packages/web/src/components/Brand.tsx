// The product's name and mark.
import { AppLink } from './AppLink';

export function Brand({ href = '/' }: { href?: string }) {
  return (
    <AppLink
      href={href}
      className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-900 dark:text-white"
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="size-6 text-indigo-600 dark:text-indigo-400"
        fill="currentColor"
      >
        <path d="M13 2 4 14h6l-1 8 9-12h-6l1-8z" />
      </svg>
      Kernelforge
    </AppLink>
  );
}
