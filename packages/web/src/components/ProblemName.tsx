// A problem as the app names it everywhere outside the spec's page titles: its id (`19_ReLU`) in monospace, its
// title muted beside it where there is room (`narrow`: only from the sm breakpoint up; always in the tooltip).
import { useProblems } from '../hooks/useProblems';
import { extraTitle, problemLabel } from '../lib/problemName';
import { AppLink } from './AppLink';

export function ProblemName({
  name,
  title,
  href,
  narrow = false,
  className = '',
}: {
  /** The problem's id, e.g. `19_ReLU`. */
  name: string;
  /** Its title; looked up in the problem catalogue when not given. */
  title?: string | null | undefined;
  /** Makes the id a link (leave out inside another link). */
  href?: string | undefined;
  /** Tight places (table cells on a phone): the title shows from the sm breakpoint up, else in the tooltip only. */
  narrow?: boolean;
  className?: string;
}) {
  const catalogue = useProblems(title === undefined);
  const known = title ?? catalogue.data?.data.find((p) => p.name === name)?.title;
  const extra = extraTitle(name, known);
  const id = <span className="font-mono break-all">{name}</span>;
  return (
    <span
      className={`inline-flex max-w-full min-w-0 flex-wrap items-baseline gap-x-1.5 ${className}`}
      title={problemLabel(name, known)}
      data-testid="problem-name"
      data-problem={name}
    >
      {href ? <AppLink href={href}>{id}</AppLink> : id}
      {extra ? (
        <span
          className={`font-normal font-sans text-slate-500 dark:text-slate-400 ${narrow ? 'max-sm:hidden' : ''}`}
          data-testid="problem-title"
        >
          {extra}
        </span>
      ) : null}
    </span>
  );
}
