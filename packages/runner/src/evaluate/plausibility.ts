// Roofline figures from the cost formulas and the device's peaks; the implausible and flagged rules (DESIGN 6.6).
import type { BenchmarkCase, Device, TimingStats } from '@kernelforge/sdk';
import { evalExpr } from '../problems/expr.js';
import type { ProblemDefinition } from '../problems/schema.js';

/** Measured peaks carry noise (a shared 2-core machine moves them by 2x): only this far above them is a result called impossible. */
export const PEAK_MARGIN = 1.25;
export const FLAG_SPEEDUP = 10;
export const FLAG_FRACTION = 0.9;

/**
 * The fp32 ceiling results are held to: the measured FMA throughput, or the theoretical one (cores x clock x flops
 * per cycle) when that is higher. The theoretical figure does not depend on how busy the machine was when the
 * peaks were measured, so a measurement taken under load cannot make an honest kernel look impossible.
 */
export function flopsPeak(device: Device): number {
  return Math.max(device.peaks.fp32_gflops, device.peaks.theoretical_fp32_gflops ?? 0);
}

export function benchCase(
  p: ProblemDefinition,
  device: Device,
  name: string,
  sizes: Record<string, number>,
  optimized: TimingStats,
  baseline: TimingStats,
  inside: number | undefined,
): BenchmarkCase {
  const seconds = optimized.median_ms / 1000;
  const flops = safe(() => evalExpr(p.cost.flops, sizes));
  const bytes = safe(() => evalExpr(p.cost.bytes, sizes));
  const gflops = seconds > 0 ? flops / seconds / 1e9 : 0;
  const gbps = seconds > 0 ? bytes / seconds / 1e9 : 0;
  const fb = device.peaks.bandwidth_gbps > 0 ? gbps / device.peaks.bandwidth_gbps : 0;
  const peakFlops = flopsPeak(device);
  const ff = peakFlops > 0 ? gflops / peakFlops : 0;
  return {
    name,
    sizes,
    optimized,
    baseline,
    speedup: optimized.median_ms > 0 ? baseline.median_ms / optimized.median_ms : 0,
    gbps,
    gflops,
    fraction_of_peak: Math.max(fb, ff),
    fraction_of_peak_bandwidth: fb,
    fraction_of_peak_flops: ff,
    ...(inside !== undefined ? { inside_ms: inside } : {}),
    outside_ms: optimized.median_ms,
  };
}

function safe(f: () => number): number {
  try {
    const v = f();
    return Number.isFinite(v) ? v : 0;
  } catch {
    return 0;
  }
}

export function implausibleReason(c: BenchmarkCase, device: Device): string | undefined {
  if (device.peaks.source === 'unknown') return undefined;
  if (c.fraction_of_peak_bandwidth > PEAK_MARGIN)
    return `case ${c.name}: ${c.gbps.toFixed(1)} GB/s is above the device's peak of ${device.peaks.bandwidth_gbps.toFixed(1)} GB/s`;
  if (c.fraction_of_peak_flops > PEAK_MARGIN)
    return `case ${c.name}: ${c.gflops.toFixed(1)} GFLOP/s is above the device's peak of ${flopsPeak(device).toFixed(1)} GFLOP/s`;
  return undefined;
}

export function reviewReasons(cases: readonly BenchmarkCase[], speedup: number): string[] {
  const reasons: string[] = [];
  if (speedup > FLAG_SPEEDUP) reasons.push(`speedup ${speedup.toFixed(1)}x is over ${FLAG_SPEEDUP}x`);
  for (const c of cases)
    if (c.fraction_of_peak > FLAG_FRACTION)
      reasons.push(`case ${c.name} reaches ${(c.fraction_of_peak * 100).toFixed(0)}% of peak`);
  return reasons;
}
