// Summary statistics of timing samples (ms).
import type { TimingStats } from '@kernelforge/sdk';

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function timingStats(xs: readonly number[]): TimingStats {
  const n = xs.length;
  const mean = n ? xs.reduce((a, b) => a + b, 0) / n : 0;
  const variance = n > 1 ? xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) : 0;
  return {
    mean_ms: mean,
    median_ms: n ? median(xs) : 0,
    min_ms: n ? Math.min(...xs) : 0,
    max_ms: n ? Math.max(...xs) : 0,
    stddev_ms: Math.sqrt(variance),
    samples: n,
  };
}

/** The published intervals are 95% ones. */
export const INTERVAL_Z = 1.96;

/**
 * A distribution-free 95% interval of the median: the order statistics at ranks n/2 -+ 1.96 sqrt(n)/2 (the rank of
 * the sample median varies by about sqrt(n)/2). Null under 6 values, where it says nothing.
 */
export function medianInterval(xs: readonly number[]): [number, number] | null {
  const n = xs.length;
  if (n < 6) return null;
  const v = [...xs].sort((a, b) => a - b);
  const half = (INTERVAL_Z * Math.sqrt(n)) / 2;
  const lo = Math.max(0, Math.floor(n / 2 - half));
  const hi = Math.min(n - 1, Math.ceil(n / 2 + half) - 1);
  return [v[lo] as number, v[hi] as number];
}
