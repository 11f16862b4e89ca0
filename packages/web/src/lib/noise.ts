// Measurement noise: the spread of a timed result from its 95% interval, and whether two times are told apart.
import { type BenchmarkingResult, spreadText } from '@kernelforge/sdk';
import { formatMs } from './format';

/** A 95% interval [low, high]. */
type Interval = readonly [number, number];

/** How a spread is labelled wherever it is shown. */
export const SPREAD_LABEL = '95% interval';

/** A time's spread: `±1.2%` (the half-width of its 95% interval over the time) and the interval in words. */
export interface Spread {
  text: string;
  title: string;
}

/** The spread of `ms` from its 95% interval; undefined without an interval: no interval, no spread. */
export function spreadOf(ms: number | null | undefined, interval: Interval | undefined): Spread | undefined {
  // The sdk's spreadText: the same words the tuner's note and the CLI write.
  const text = spreadText(ms, interval);
  if (!text || !interval) return undefined;
  return { text, title: `${SPREAD_LABEL} ${formatMs(interval[0])}–${formatMs(interval[1])}` };
}

/** Two results take the same time within noise when the 95% interval of the ratio of their times holds 1, that is
 * when their time intervals overlap. Without an interval on either side nothing can be said: false. */
export function withinNoise(
  a: BenchmarkingResult | null | undefined,
  b: BenchmarkingResult | null | undefined,
): boolean {
  return intervalsOverlap(a?.optimized_time_interval, b?.optimized_time_interval);
}

/** Whether two intervals share a point; false when either is missing. */
export function intervalsOverlap(a: Interval | undefined, b: Interval | undefined): boolean {
  if (!a || !b) return false;
  return a[0] <= b[1] && b[0] <= a[1];
}
