// The recheck against the peaks (judge/peak.ts), for both backends: a result the judge calls implausible, or above a
// peak measured under load, or near a peak, gets the cpu's peaks measured again and the run judged again.
import type { Device, EvaluationState } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { judgeWithPeakRecheck, peakRecheck, RECHECK_MEASURE, type RefreshPeaks } from '../src/evaluate/judge/peak.js';
import { stateFromTorchReport, type TorchReport } from '../src/backends/torch/report.js';

const MiB = 1 << 20;
const cpu = (bandwidth: number): Device =>
  ({
    id: 'cpu-test',
    name: 'test cpu',
    kind: 'cpu',
    cores: 2,
    cpu: { caches: { l2_bytes: MiB, l3_bytes: 8 * MiB } },
    peaks: { bandwidth_gbps: bandwidth, fp32_gflops: 500, source: 'measured', measurement: { quiet: true } },
  }) as unknown as Device;

/** A torch report of one case that moves 256 MiB (data far beyond the last-level cache) in about 10 ms: ~27 GB/s. */
const report: TorchReport = {
  verdict: 'accepted',
  message: 'accepted',
  correctness: [],
  bench: [
    {
      name: 'big',
      sizes: { n: 1 },
      optimized: [10, 10.1, 9.9, 10, 10, 10.05, 9.95],
      baseline: [20, 20.1, 19.9, 20, 20, 20.05, 19.95],
      flagged: 0,
      ratios: [2, 2, 2, 2, 2, 2, 2],
      bytes: 256 * MiB,
    },
  ],
};

const judgeTorch = (device: Device) => () =>
  stateFromTorchReport(report, {
    base: { mode: 'benchmark', evaluated_at: '2026-11-27T00:00:00Z' },
    compile: null,
    environment: undefined,
    ranked: false,
    elapsed: () => 1,
    output: {},
    benchConstants: {},
    device,
    timedRuns: 1,
    reviewReasons: [],
  });

/** A refresh that records its calls and sets the device's bandwidth peak to `to` (null: nothing measured). */
function refresher(to: number | null) {
  const calls: Parameters<RefreshPeaks>[1][] = [];
  const refresh: RefreshPeaks = async (device, opts) => {
    calls.push(opts);
    if (to === null) return false;
    device.peaks = { ...device.peaks, bandwidth_gbps: to };
    return true;
  };
  return { calls, refresh };
}

describe('the recheck against the peaks', () => {
  it('says when to measure again and how hard', () => {
    expect(peakRecheck({ verdict: 'implausible', benchmarking_result: null })).toBe('now');
    expect(peakRecheck({ verdict: 'incorrect', benchmarking_result: null })).toBeNull();
    expect(RECHECK_MEASURE.now.tries).toBe(3);
    expect(RECHECK_MEASURE.unbelieved).toEqual({ tries: 2, minIntervalMs: 60_000 });
    expect(RECHECK_MEASURE.throttled).toEqual({ tries: 1, minIntervalMs: 600_000 });
  });

  it('a torch result on a cpu above a stale peak is judged again once the peaks are measured anew', async () => {
    const device = cpu(10);
    expect(judgeTorch(device)().verdict).toBe('implausible');
    const { calls, refresh } = refresher(40);
    const state = await judgeWithPeakRecheck(device, undefined, judgeTorch(device), refresh);
    expect(calls).toEqual([{ waitMs: 5000, signal: undefined, tries: 3 }]);
    expect(state.verdict).toBe('accepted');
  });

  it('the wait for a quiet second before each run is 5 s unless the evaluation says otherwise (tests: 0)', async () => {
    const device = cpu(10);
    const { calls, refresh } = refresher(40);
    await judgeWithPeakRecheck(device, undefined, judgeTorch(device), refresh, 0);
    expect(calls).toEqual([{ waitMs: 0, signal: undefined, tries: 3 }]);
  });

  it('stays implausible when the peaks measured again still say so', async () => {
    const device = cpu(10);
    const { calls, refresh } = refresher(null);
    const state = await judgeWithPeakRecheck(device, undefined, judgeTorch(device), refresh);
    expect(calls.length).toBe(1);
    expect(state.verdict).toBe('implausible');
    expect(state.message).toMatch(/above the device's peak of 10\.0 GB\/s/);
  });

  it('a result near the peak measures at most every 10 minutes; one far below it measures nothing', async () => {
    const near = refresher(null);
    const s1 = await judgeWithPeakRecheck(cpu(30), undefined, judgeTorch(cpu(30)), near.refresh);
    expect(s1.verdict).toBe('accepted');
    expect(near.calls).toEqual([{ waitMs: 5000, signal: undefined, tries: 1, minIntervalMs: 600_000 }]);
    const far = refresher(null);
    const s2 = await judgeWithPeakRecheck(cpu(1000), undefined, judgeTorch(cpu(1000)), far.refresh);
    expect(s2.verdict).toBe('accepted');
    expect(far.calls).toEqual([]);
  });

  it('judges once when nothing calls for a recheck', async () => {
    let judged = 0;
    const state = { verdict: 'incorrect', benchmarking_result: null } as unknown as EvaluationState;
    const { calls, refresh } = refresher(40);
    await judgeWithPeakRecheck(
      cpu(10),
      undefined,
      () => {
        judged++;
        return state;
      },
      refresh,
    );
    expect(judged).toBe(1);
    expect(calls).toEqual([]);
  });
});
