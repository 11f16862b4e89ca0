// A speedup that reads at a glance: below 1x it says "slower", in red.
import { formatSpeedup } from '../lib/format';

export function Speedup({ value }: { value: number | null | undefined }) {
  if (value === null || value === undefined || !Number.isFinite(value)) return <span>—</span>;
  if (value < 1)
    return (
      <span className="text-rose-700 dark:text-rose-300" title={`${formatSpeedup(1 / value)} slower than the baseline`}>
        {formatSpeedup(value)} <span className="text-xs">slower</span>
      </span>
    );
  return <span>{formatSpeedup(value)}</span>;
}

/** A time with its spread beside it, e.g. `1.234 ms ±0.8%`. */
export function TimeWithSpread({
  ms,
  spread,
  formatted,
}: {
  ms: number | null | undefined;
  spread?: string;
  formatted: string;
}) {
  return (
    <span className="whitespace-nowrap">
      {formatted}
      {spread && ms ? <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">{spread}</span> : null}
    </span>
  );
}
