// A second look before calling a cpu result impossible: peaks measured while the machine was busy understate it.
import type { Device } from '@kernelforge/sdk';
import { measureCpuPeaks, mergePeaks } from './cpu.js';

const lastRefresh = new WeakMap<Device, number>();

/**
 * Re-measures the cpu's peaks and raises the device's figures in place (never lowers them); the measurement record
 * (when, how, the load) is the latest one's. With `minIntervalMs`, does nothing when the last re-measurement of this
 * device is more recent than that. True when a figure went up.
 */
export function refreshCpuPeaks(device: Device, opts: { minIntervalMs?: number } = {}): boolean {
  if (device.kind !== 'cpu' || device.peaks.source !== 'measured') return false;
  const last = lastRefresh.get(device);
  if (opts.minIntervalMs !== undefined && last !== undefined && Date.now() - last < opts.minIntervalMs) return false;
  lastRefresh.set(device, Date.now());
  const fresh = measureCpuPeaks(undefined, true);
  const before = { ...device.peaks };
  device.peaks = mergePeaks(device.peaks, fresh);
  return device.peaks.bandwidth_gbps > before.bandwidth_gbps || device.peaks.fp32_gflops > before.fp32_gflops;
}
