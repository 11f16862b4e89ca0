// Measurement noise: the spread of a timed result, and whether two times differ by more than their noise.
import type { BenchmarkingResult } from '@kernelforge/sdk';

/** The standard deviation (ms) of a result's time, a sum of per-case medians: the per-case spreads in quadrature. */
export function spreadMs(result: BenchmarkingResult | null | undefined): number | undefined {
  if (!result || result.cases.length === 0) return undefined;
  const variance = result.cases.reduce((sum, c) => sum + c.optimized.stddev_ms ** 2, 0);
  return Number.isFinite(variance) ? Math.sqrt(variance) : undefined;
}

/** Two times are within noise when they differ by less than twice their combined spread. */
export function withinNoise(a: number, spreadA: number | undefined, b: number, spreadB: number | undefined): boolean {
  if (spreadA === undefined && spreadB === undefined) return false;
  const combined = Math.sqrt((spreadA ?? 0) ** 2 + (spreadB ?? 0) ** 2);
  return Math.abs(a - b) <= 2 * combined;
}

/** `±1.2%` of the time, or '' without a spread. */
export function formatSpread(timeMs: number | null | undefined, spread: number | undefined): string {
  if (spread === undefined || !timeMs || !Number.isFinite(timeMs)) return '';
  const pct = (spread / timeMs) * 100;
  return `±${pct < 0.1 ? pct.toFixed(2) : pct.toFixed(1)}%`;
}

/** The standard error (ms) of a result's time: how far the measured time itself may be off. */
export function standardErrorMs(result: BenchmarkingResult | null | undefined): number | undefined {
  if (!result || result.cases.length === 0) return undefined;
  const variance = result.cases.reduce(
    (sum, c) => sum + c.optimized.stddev_ms ** 2 / Math.max(1, c.optimized.samples),
    0,
  );
  return Number.isFinite(variance) ? Math.sqrt(variance) : undefined;
}
