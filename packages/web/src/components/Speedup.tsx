// A speedup that reads at a glance: below 1x it says "slower", in red; no measurable difference reads "same as baseline".
import { formatMs, formatSpeedup } from '../lib/format';
import { spreadOf } from '../lib/noise';

export function Speedup({
  value,
  interval,
}: {
  value: number | null | undefined;
  /** The 95% interval, when the runner measured one (paired samples). */
  interval?: readonly [number, number] | undefined;
}) {
  if (value === null || value === undefined || !Number.isFinite(value)) return <span>—</span>;
  const ci = interval ? (
    <span className="text-xs font-normal text-slate-500 dark:text-slate-400" title="95% interval">
      {' '}
      ({formatSpeedup(interval[0])}–{formatSpeedup(interval[1])})
    </span>
  ) : null;
  // An interval that holds 1.00x cannot tell the two apart, and without an interval a figure that rounds to 1.00x
  // is no difference either: never "slower" then, but "same as baseline".
  const same =
    interval !== undefined ? interval[0] <= 1 && interval[1] >= 1 : formatSpeedup(value) === formatSpeedup(1);
  if (value < 1 && !same)
    return (
      <span className="text-rose-700 dark:text-rose-300" title={`${formatSpeedup(1 / value)} slower than the baseline`}>
        {formatSpeedup(value)} <span className="text-xs">slower</span>
        {ci}
      </span>
    );
  return (
    <span
      title={
        same
          ? interval
            ? 'same as the baseline, within noise (the 95% interval holds 1.00×)'
            : 'same as the baseline'
          : undefined
      }
    >
      {formatSpeedup(value)}
      {same ? (
        <span className="text-xs font-normal text-slate-500 dark:text-slate-400" data-testid="same-as-baseline">
          {' '}
          same as baseline
        </span>
      ) : null}
      {ci}
    </span>
  );
}

/** A time with its spread beside it, e.g. `1.234 ms ±0.8%`; the spread comes from the time's 95% interval (its title
 * gives the interval) and is left out when the runner measured none. */
export function TimeWithSpread({
  ms,
  interval,
}: {
  ms: number | null | undefined;
  interval?: readonly [number, number] | undefined;
}) {
  const spread = spreadOf(ms, interval);
  return (
    <span className="whitespace-nowrap">
      {formatMs(ms)}
      {spread ? (
        <span
          className="ml-1 text-xs text-slate-500 dark:text-slate-400"
          title={spread.title}
          data-testid="time-spread"
        >
          {spread.text}
        </span>
      ) : null}
    </span>
  );
}
