// One side of a comparison (two attempts, two submissions): its heading, then its figures as a term list, the
// lifecycle, verdict, time with its spread and speedup with its interval always in the same rows.
import type { BenchmarkingResult } from '@kernelforge/sdk';
import type { ReactNode } from 'react';
import { Speedup, TimeWithSpread } from './Speedup';
import { LifecycleBadge, VerdictBadge } from './StatusBadge';

export function Figure({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500 dark:text-slate-400">{term}</dt>
      <dd className="min-w-0 wrap-anywhere">{children}</dd>
    </>
  );
}

export function CompareFigures({
  side,
  heading,
  status,
  verdict,
  result,
  ms = result?.optimized_time,
  children,
}: {
  side: 'A' | 'B';
  heading: ReactNode;
  status: string;
  verdict: string | null | undefined;
  result: BenchmarkingResult | null | undefined;
  /** The time shown; the result's optimized time unless given. */
  ms?: number | null | undefined;
  /** Rows shown before the figures (who, what, where). */
  children?: ReactNode;
}) {
  return (
    <div className="min-w-0" data-testid={`figures-${side}`}>
      <p className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">
        {side}: {heading}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {children}
        <Figure term="Status">
          <LifecycleBadge status={status} />
        </Figure>
        <Figure term="Verdict">
          <VerdictBadge verdict={verdict} />
        </Figure>
        <dt className="text-slate-500 dark:text-slate-400">Time</dt>
        <dd className="tabular-nums">
          <TimeWithSpread ms={ms} interval={result?.optimized_time_interval} />
        </dd>
        <dt className="text-slate-500 dark:text-slate-400">Speedup</dt>
        <dd className="tabular-nums">
          <Speedup value={result?.speedup} interval={result?.speedup_interval} />
        </dd>
      </dl>
    </div>
  );
}
