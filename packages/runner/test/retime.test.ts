// What a ranked result timed twice publishes (backend.ts retimedState): a noisy first timing gives way to a quiet
// second; two noisy timings are combined, so the interval shows how far two harness processes disagreed.
import type { Device, EvaluationState } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { retimedState } from '../src/evaluate/backend.js';
import { judgeTimed } from '../src/evaluate/judge.js';

const device = {
  id: 'cpu-test',
  name: 'test cpu',
  kind: 'cpu',
  cores: 2,
  peaks: { bandwidth_gbps: 50, fp32_gflops: 500, source: 'measured' },
} as unknown as Device;

const quiet = { outside_cores: 0.1, cores: 2, wall_ms: 250, lock: true, lock_wait_ms: 0, lock_gave_up: false };
const busy = { ...quiet, outside_cores: 1.7 };

/** A ranked timing of identical code whose paired ratios centre on `speedup`, tightly (as one process reads it). */
function timing(speedup: number, load: typeof quiet): EvaluationState {
  const ratios = Array.from({ length: 40 }, (_, i) => speedup * (1 + ((i % 5) - 2) * 0.01));
  const j = judgeTimed({
    device,
    ranked: true,
    cases: [
      {
        name: 'bench1',
        sizes: { n: 1 },
        optimized: Array(40).fill(1),
        baseline: ratios,
        ratios,
        flagged: 0,
        bytes: 0,
        flops: 0,
        cacheCold: true,
      },
    ],
    timedRuns: 1,
    baselineName: 'the reference',
    load,
  });
  return {
    verdict: j.verdict,
    message: j.message,
    benchmarking_result: j.result,
    runner_seconds: 1,
  } as EvaluationState;
}

describe('a ranked result timed twice', () => {
  it('two timings under load are combined: the interval holds both, and identical code is not published as slower', () => {
    const first = timing(1.0, busy);
    const waited = timing(0.82, busy);
    const second = {
      ...waited,
      benchmarking_result: {
        ...waited.benchmarking_result!,
        load: { ...waited.benchmarking_result!.load!, retime_wait_ms: 2000 },
      },
    } as EvaluationState;
    // The second alone excludes 1.00x (what was published before).
    expect(second.benchmarking_result!.speedup_interval![1]).toBeLessThan(1);
    const r = retimedState(first, second, true, true).benchmarking_result!;
    expect(r.speedup).toBeCloseTo(0.82, 2);
    expect(r.speedup_interval![0]).toBeLessThanOrEqual(0.82);
    expect(r.speedup_interval![1]).toBeGreaterThanOrEqual(1);
    expect(r.load?.timed_runs).toBe(2);
    expect(r.load?.retime_wait_ms).toBe(2000);
    expect(r.flagged_for_review).toBe(true);
  });

  it('the wait before the second timing is published when the figures shown are those of the first', () => {
    const slowFirst = timing(0.9, busy);
    const fast = timing(1.0, busy);
    const second = {
      ...fast,
      benchmarking_result: {
        ...fast.benchmarking_result!,
        load: { ...fast.benchmarking_result!.load!, retime_wait_ms: 2000 },
      },
    } as EvaluationState;
    const r = retimedState(slowFirst, second, true, true).benchmarking_result!;
    expect(r.speedup).toBeCloseTo(0.9, 2);
    expect(r.load?.retime_wait_ms).toBe(2000);
    expect(r.load?.timed_runs).toBe(2);
    // No wait, none made up.
    expect(retimedState(slowFirst, fast, true, true).benchmarking_result!.load?.retime_wait_ms).toBeUndefined();
  });

  it('a noisy first timing gives way to a quiet second; two quiet timings are combined', () => {
    const noisy = timing(0.7, busy);
    const calm = timing(1.0, quiet);
    expect(retimedState(noisy, calm, true, false)).toBe(calm);
    const both = retimedState(timing(1.01, quiet), timing(0.99, quiet), false, false).benchmarking_result!;
    expect(both.speedup).toBeCloseTo(0.99, 2);
    expect(both.load?.run_speedups).toHaveLength(2);
  });
});
