// A second look before calling a cpu result impossible: peaks measured while the machine was busy understate it, so
// they are measured again on a quiet machine (quiet-peaks.ts) and only ever raised.
import type { Device } from '@kernelforge/sdk';
import { measureCpuPeaksWhenQuiet, mergePeaks, sharedRemeasurement } from './cpu.js';

const lastRefresh = new WeakMap<Device, number>();

/**
 * Re-measures the cpu's peaks on a quiet machine (waiting for it, bounded, and retrying a run other work disturbed)
 * and raises the device's figures in place (never lowers them); the measurement record (when, how, the load, whether
 * quiet) is the latest one's. With `minIntervalMs`, does nothing when the last re-measurement of this device is more
 * recent than that. True when a figure went up, or the peaks were first found on a quiet machine: a result judged
 * against the old ones should be judged again.
 */
export async function refreshCpuPeaks(
  device: Device,
  opts: { minIntervalMs?: number; tries?: number; waitMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<boolean> {
  if (device.kind !== 'cpu' || device.peaks.source !== 'measured') return false;
  const last = lastRefresh.get(device);
  if (opts.minIntervalMs !== undefined && last !== undefined && Date.now() - last < opts.minIntervalMs) return false;
  lastRefresh.set(device, Date.now());
  // In a test run (KFORGE_CPU_PEAKS_SHARE) the processes are one runner: a re-measurement another made within the
  // interval is this one's (the product never sets it, and a result above the peak, no interval, always measures).
  const interval = opts.minIntervalMs;
  const shared = interval !== undefined ? sharedRemeasurement() : undefined;
  const fresh =
    shared && interval !== undefined && Date.now() - shared.at < interval
      ? shared.peaks
      : await measureCpuPeaksWhenQuiet(device.id, opts);
  if (!fresh) return false;
  const before = { ...device.peaks };
  device.peaks = mergePeaks(device.peaks, fresh);
  return (
    device.peaks.bandwidth_gbps > before.bandwidth_gbps ||
    device.peaks.fp32_gflops > before.fp32_gflops ||
    (device.peaks.measurement?.quiet === true && before.measurement?.quiet !== true)
  );
}
