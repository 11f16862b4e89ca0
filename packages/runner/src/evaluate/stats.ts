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
