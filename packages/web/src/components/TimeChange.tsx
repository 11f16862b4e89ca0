// B against A in words: how much faster or slower, or the same within noise (their 95% time intervals overlap).
import type { BenchmarkingResult } from '@kernelforge/sdk';
import { formatSpeedup } from '../lib/format';
import { withinNoise } from '../lib/noise';

export interface Timed {
  /** How the sentence names it: `#2`, `B`. */
  label: string;
  result: BenchmarkingResult | null | undefined;
}

export function TimeChange({ before, after }: { before: Timed; after: Timed }) {
  const ra = before.result;
  const rb = after.result;
  if (!ra || !rb || !ra.optimized_time || !rb.optimized_time)
    return <p className="text-sm text-slate-500 dark:text-slate-400">Both need a timed result to compare figures.</p>;
  const ratio = ra.optimized_time / rb.optimized_time;
  const same = withinNoise(ra, rb);
  return (
    <p
      className="text-sm"
      data-testid="compare-change"
      title={
        same ? 'within noise: their 95% time intervals overlap, so the 95% interval of their ratio holds 1' : undefined
      }
    >
      {same ? (
        <>
          {after.label} and {before.label} take the same time, within noise ({formatSpeedup(ratio)}).
        </>
      ) : ratio >= 1 ? (
        <>
          {after.label} is <strong>{formatSpeedup(ratio)} faster</strong> than {before.label}.
        </>
      ) : (
        <>
          {after.label} is{' '}
          <strong className="text-rose-700 dark:text-rose-300">{formatSpeedup(1 / ratio)} slower</strong> than{' '}
          {before.label}.
        </>
      )}
    </p>
  );
}
