// The one judge (src/evaluate/judge.ts): the rules both backends' verdicts and figures come from, on facts given
// here (no harness, no machine): flagged calls, the stopping rule, the load rule however short the timed phase,
// the roofline floor, review reasons, and the plan lines that carry the mid-run rules to the harnesses.
import type { Device, EvaluationState } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMING, planText, QUICK_TIMING, RANKED_TIMING } from '../src/harness/plan.js';
import {
  combineTimings,
  FLAGGED_MIN,
  FLAGGED_SHARE,
  heavyLoad,
  judgeTimed,
  LOAD_WINDOW_MS,
  medianInterval,
  medianRse,
  peaksBelieved,
  planRules,
  RETIME_HALF_WIDTH,
  relativeHalfWidth,
  SPEEDUP_HALF_WIDTH,
  shouldRetime,
  type TimedCase,
  timeTwice,
  withFlagged,
} from '../src/evaluate/judge.js';
import { peakRecheck } from '../src/evaluate/judge/peak.js';
import { catalogue } from './helpers.js';

const device = (bandwidth = 50, flops = 500): Device =>
  ({
    id: 'cpu-test',
    name: 'test cpu',
    kind: 'cpu',
    cores: 2,
    peaks: { bandwidth_gbps: bandwidth, fp32_gflops: flops, source: 'measured' },
  }) as unknown as Device;

const timed = (over: Partial<TimedCase> = {}): TimedCase => ({
  name: 'bench1',
  sizes: { n: 1 },
  optimized: [1, 1.1, 0.9, 1, 1],
  baseline: [2, 2, 2, 2.1, 1.9],
  flagged: 0,
  bytes: 0,
  flops: 0,
  cacheCold: true,
  ...over,
});

const quiet = { outside_cores: 0.1, cores: 2, wall_ms: 250, lock: true, lock_wait_ms: 0, lock_gave_up: false };

describe('flagged calls', () => {
  it('each counts as the slowest clean sample, so flagging slow calls never makes a time faster', () => {
    expect(withFlagged([1, 3, 2], 2)).toEqual([1, 3, 2, 3, 3]);
    const clean = judgeTimed({ device: device(), ranked: false, cases: [timed()], timedRuns: 1, baselineName: 'x' });
    const some = judgeTimed({
      device: device(),
      ranked: false,
      cases: [timed({ flagged: 3 })],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(some.result.optimized_time).toBeGreaterThanOrEqual(clean.result.optimized_time);
    expect(some.result.cases[0]?.optimized.samples).toBe(8);
  });

  it('the rejection rule reaches both harnesses through the plan', () => {
    expect(planRules()).toMatchObject({ flagged_min: FLAGGED_MIN, flagged_share: FLAGGED_SHARE });
    const problem = catalogue.get('19_ReLU');
    if (!problem) throw new Error('19_ReLU missing');
    const text = planText({
      problem,
      ranked: false,
      cuda: false,
      testCases: problem.cases.test,
      benchCases: problem.cases.benchmark,
      seeds: [1n],
      benchSeed: 2n,
      timing: {
        warmupCalls: 1,
        warmupMs: 0,
        minSamples: 5,
        minMs: 0,
        maxMs: 100,
        targetRse: 1,
        checkProbability: 1,
        callTimeoutMs: 1000,
      },
    });
    expect(text).toContain(`rules ${FLAGGED_MIN} ${FLAGGED_SHARE} ${LOAD_WINDOW_MS} `);
  });
});

describe('the stopping rule', () => {
  it('is on the standard error of the median, which outliers hardly move', () => {
    const steady = Array.from({ length: 40 }, (_, i) => 1 + (i % 5) * 0.001);
    const withOutliers = [...steady, 50, 60, 70];
    expect(medianRse(steady)).toBeLessThan(0.01);
    expect(medianRse(withOutliers)).toBeLessThan(0.01);
    expect(medianRse([1])).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('paired speedup and its interval', () => {
  it('is the median of the pairs, which a slow minute (both calls of its pairs slow) hardly moves', () => {
    // 20 pairs at 1.0x; the last 8 taken in a slow minute where both calls ran 3x slower.
    const cand = [...Array(12).fill(1), ...Array(8).fill(3)];
    const base = [...Array(12).fill(1), ...Array(8).fill(3)];
    const ratios = base.map((b, i) => b / (cand[i] as number));
    const j = judgeTimed({
      device: device(),
      ranked: false,
      cases: [timed({ optimized: cand, baseline: base, ratios })],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(j.result.speedup).toBe(1);
    expect(j.result.speedup_interval).toEqual([1, 1]);
    expect(j.message).toBe('accepted: 1.00x (95% interval 1.00-1.00x), within noise of x');
    // Too few pairs for an interval: a figure that rounds to 1.00x is never "1.00x slower".
    const few = judgeTimed({
      device: device(),
      ranked: false,
      cases: [timed({ optimized: [1.001, 1.002], baseline: [1, 1], ratios: [0.999, 0.998] })],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(few.message).toBe('accepted: 1.00x, no measurable difference from x');
    expect(j.result.cases[0]?.speedup_interval).toEqual([1, 1]);
    expect(j.result.optimized_time_interval?.[0]).toBeLessThanOrEqual(j.result.optimized_time);
  });

  it('a distribution-free 95% interval of the median, none under 6 values', () => {
    expect(medianInterval([1, 2, 3])).toBeNull();
    const xs = Array.from({ length: 100 }, (_, i) => i);
    const [lo, hi] = medianInterval(xs) as [number, number];
    expect(lo).toBeLessThan(49.5);
    expect(hi).toBeGreaterThan(49.5);
    expect(hi - lo).toBeLessThan(25);
  });

  it('a flagged call counts as the worst pair', () => {
    const ratios = [1, 1, 1, 1, 1, 1, 0.5];
    const j = judgeTimed({
      device: device(),
      ranked: false,
      cases: [timed({ optimized: Array(7).fill(1), baseline: Array(7).fill(1), ratios, flagged: 6 })],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(j.result.speedup).toBeLessThan(1);
  });
});

describe('load', () => {
  it('heavy outside load is noisy whatever the timed phase (the harnesses pad the window to LOAD_WINDOW_MS)', () => {
    expect(heavyLoad({ ...quiet, outside_cores: 1.06 })).toBe(true);
    expect(heavyLoad(quiet)).toBe(false);
    expect(heavyLoad({ ...quiet, lock_gave_up: true })).toBe(true);
    // A window the harness did not pad cannot be read.
    expect(heavyLoad({ ...quiet, outside_cores: 1.5, wall_ms: 40 })).toBe(false);
  });

  it('a ranked result under heavy load is timed again once; then kept, flagged noisy', () => {
    const busy = { ...quiet, outside_cores: 1.5 };
    expect(shouldRetime(true, busy, 1)).toBe(true);
    expect(shouldRetime(true, busy, 2)).toBe(false);
    expect(shouldRetime(false, busy, 1)).toBe(false);
    // Rules that say no (quick, for tests) are never timed again.
    expect(shouldRetime(true, busy, 1, { retime: false })).toBe(false);
    expect(shouldRetime(true, busy, 1, { retime: true })).toBe(true);
    const j = judgeTimed({
      device: device(),
      ranked: true,
      cases: [timed()],
      load: busy,
      timedRuns: 2,
      baselineName: 'x',
    });
    expect(j.verdict).toBe('accepted');
    expect(j.result.load).toMatchObject({ noisy: true, timed_runs: 2 });
    expect(j.result.flagged_for_review).toBe(true);
    expect(j.result.review_reasons.join('\n')).toMatch(/times may be noisy/);
  });
});

describe('the roofline floor', () => {
  it('a time that would need more than the measured bandwidth is implausible when the data came from memory', () => {
    // 1 GB in 1 ms is 1000 GB/s against a 50 GB/s device.
    const fast = timed({ bytes: 1e9 });
    const j = judgeTimed({ device: device(), ranked: false, cases: [fast], timedRuns: 1, baselineName: 'x' });
    expect(j.verdict).toBe('implausible');
    expect(j.message).toMatch(/GB\/s is above the device's peak/);
  });

  it('not where the data may sit in the cache (a torch case under twice the last-level cache)', () => {
    const cached = timed({ bytes: 1e9, cacheCold: false });
    const j = judgeTimed({ device: device(), ranked: false, cases: [cached], timedRuns: 1, baselineName: 'x' });
    expect(j.verdict).toBe('accepted');
  });

  it('the flops ceiling always holds', () => {
    const j = judgeTimed({
      device: device(),
      ranked: false,
      cases: [timed({ flops: 1e12, cacheCold: false })],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(j.verdict).toBe('implausible');
  });

  // Issue 35: an honest ReLU read 31.3 GB/s against a 24.4 GB/s peak measured while the machine was busy (40 quiet).
  const underLoad = (bandwidth: number, flops: number, theoretical?: number): Device => {
    const d = device(bandwidth, flops);
    d.peaks.measurement = {
      measured_at: '2026-11-27T12:00:00.000Z',
      runs: 15,
      code_path: 'avx2-fma',
      bandwidth_method: 'triad',
      flops_method: 'fma',
      quiet: false,
      outside_busy_cores: 1.2,
    };
    if (theoretical) d.peaks.theoretical_fp32_gflops = theoretical;
    return d;
  };
  const relu = timed({ name: 'n8M', bytes: 31.3e6 });

  it('a result above a peak measured under load is flagged for review, never called implausible', () => {
    const j = judgeTimed({
      device: underLoad(24.4, 500),
      ranked: false,
      cases: [relu],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(j.verdict, j.message).toBe('accepted');
    expect(j.result.flagged_for_review).toBe(true);
    expect(j.result.review_reasons.join('\n')).toMatch(
      /case n8M: 31\.3 GB\/s is above the device's peak of 24\.4 GB\/s \(other work kept 1\.2 cores busy\): not called implausible against a peak measured under load/,
    );
    expect(peakRecheck({ verdict: j.verdict, benchmarking_result: j.result })).toBe('unbelieved');
    // The same figures against a peak measured on a quiet machine are impossible.
    const quietPeak = underLoad(24.4, 500);
    if (quietPeak.peaks.measurement) quietPeak.peaks.measurement.quiet = true;
    const q = judgeTimed({ device: quietPeak, ranked: false, cases: [relu], timedRuns: 1, baselineName: 'x' });
    expect(q.verdict).toBe('implausible');
    expect(peaksBelieved(quietPeak)).toBe(true);
    expect(peaksBelieved(underLoad(24.4, 500))).toBe(false);
  });

  it('a FLOP/s figure above a theoretical ceiling is implausible whatever the load the peaks were measured under', () => {
    const flops = timed({ flops: 1e12, cacheCold: false });
    const capped = judgeTimed({
      device: underLoad(50, 100, 200),
      ranked: false,
      cases: [flops],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(capped.verdict).toBe('implausible');
    // Without a theoretical figure the measured one is the ceiling, and it was measured under load: flagged.
    const measuredOnly = judgeTimed({
      device: underLoad(50, 100),
      ranked: false,
      cases: [flops],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(measuredOnly.verdict).toBe('accepted');
    expect(measuredOnly.result.review_reasons.join('\n')).toMatch(/GFLOP\/s is above .*not called implausible/);
  });
});

describe('review', () => {
  it('reasons found before timing (the static scan) flag an accepted result, never reject it', () => {
    const j = judgeTimed({
      device: device(),
      ranked: false,
      cases: [timed()],
      timedRuns: 1,
      baselineName: 'the reference in eager PyTorch',
      reviewReasons: ['line 3: a thread is started'],
    });
    expect(j.verdict).toBe('accepted');
    expect(j.message).toMatch(/^accepted: 2\.00x faster than the reference in eager PyTorch/);
    expect(j.result.review_reasons).toEqual(['line 3: a thread is started']);
  });

  it('over 10x is flagged on both backends alike', () => {
    const j = judgeTimed({
      device: device(),
      ranked: false,
      cases: [timed({ baseline: [20, 20, 20, 20, 20] })],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(j.result.review_reasons.join('\n')).toMatch(/over 10x/);
  });

  it('ranked C sizes are hidden; the figures still use them', () => {
    const j = judgeTimed({
      device: device(),
      ranked: true,
      hideSizes: true,
      cases: [timed({ bytes: 1e6 })],
      timedRuns: 1,
      baselineName: 'x',
    });
    expect(j.result.cases[0]?.sizes).toEqual({});
    expect(j.result.gbps).toBeGreaterThan(0);
  });
});

describe('precision of the paired speedup', () => {
  // 40 pairs whose ratios spread +-1% around 1.0 (a precise identical-code run) and +-10% (a noisy one).
  const tight = Array.from({ length: 40 }, (_, i) => 0.99 + (0.02 * i) / 39);
  const wide = Array.from({ length: 40 }, (_, i) => 0.9 + (0.2 * i) / 39);

  it('the half-width is that of the published interval, over the median', () => {
    const iv = medianInterval(wide) as [number, number];
    expect(relativeHalfWidth(wide)).toBeCloseTo((iv[1] - iv[0]) / 2 / 1.0, 6);
    expect(relativeHalfWidth(tight)).toBeLessThan(RETIME_HALF_WIDTH);
    expect(relativeHalfWidth(wide)).toBeGreaterThan(RETIME_HALF_WIDTH);
    expect(relativeHalfWidth([1, 1, 1])).toBe(Number.POSITIVE_INFINITY);
  });

  it('the harnesses sample until the interval is SPEEDUP_HALF_WIDTH wide (default and ranked rules, not quick)', () => {
    const p = catalogue.get('19_ReLU');
    if (!p) throw new Error('no 19_ReLU');
    const plan = (timing: typeof DEFAULT_TIMING) =>
      planText({
        problem: p,
        ranked: false,
        cuda: false,
        testCases: p.cases.test,
        benchCases: p.cases.benchmark,
        seeds: [1n],
        benchSeed: 2n,
        timing,
      });
    expect(plan(DEFAULT_TIMING)).toContain(`speedup_half_width ${SPEEDUP_HALF_WIDTH}`);
    expect(plan(RANKED_TIMING)).toContain(`speedup_half_width ${SPEEDUP_HALF_WIDTH}`);
    expect(plan(QUICK_TIMING)).not.toContain('speedup_half_width');
  });

  it('a ranked result with a wide interval is timed again once, then published with its interval, unflagged', () => {
    expect(shouldRetime(true, quiet, 1, {}, [{ ratios: wide }])).toBe(true);
    expect(shouldRetime(true, quiet, 1, {}, [{ ratios: tight }])).toBe(false);
    expect(shouldRetime(true, quiet, 2, {}, [{ ratios: wide }])).toBe(false);
    expect(shouldRetime(false, quiet, 1, {}, [{ ratios: wide }])).toBe(false);
    expect(shouldRetime(true, quiet, 1, { retime: false }, [{ ratios: wide }])).toBe(false);
    const j = judgeTimed({
      device: device(),
      ranked: true,
      cases: [timed({ optimized: Array(40).fill(1), baseline: Array(40).fill(1), ratios: wide })],
      load: quiet,
      timedRuns: 2,
      baselineName: 'x',
    });
    expect(j.verdict).toBe('accepted');
    // An honest fast kernel can read +-15% on a quiet machine: its interval says so; no flag ranks it lower.
    expect(j.result.flagged_for_review).toBe(false);
    const [lo, hi] = j.result.speedup_interval ?? [1, 1];
    expect((hi - lo) / 2 / j.result.speedup).toBeGreaterThan(RETIME_HALF_WIDTH);
  });
});

describe('a ranked result timed by two fresh processes', () => {
  /** One run's accepted state: n pairs at about `speedup` (a little spread), candidate at 1 ms. */
  const runAt = (speedup: number, seconds = 1): EvaluationState => {
    const ratios = Array.from({ length: 40 }, (_, i) => speedup * (1 + ((i % 5) - 2) * 0.002));
    const j = judgeTimed({
      device: device(),
      ranked: true,
      cases: [timed({ optimized: Array(40).fill(1), baseline: ratios, ratios })],
      timedRuns: 1,
      baselineName: 'the reference',
      load: quiet,
    });
    return {
      verdict: 'accepted',
      message: j.message,
      benchmarking_result: j.result,
      runner_seconds: seconds,
    } as EvaluationState;
  };

  it('publishes the lower speedup, with intervals that hold both runs and both runs named', () => {
    const fast = runAt(8.8);
    const slow = runAt(5.1, 3);
    for (const [a, b] of [
      [fast, slow],
      [slow, fast],
    ] as const) {
      const c = combineTimings(a, b);
      const r = c.benchmarking_result!;
      expect(r.speedup).toBeCloseTo(5.1, 1);
      expect(r.speedup_interval![0]).toBeLessThanOrEqual(5.1);
      expect(r.speedup_interval![1]).toBeGreaterThanOrEqual(8.8);
      expect(r.cases[0]!.speedup_interval![1]).toBeGreaterThanOrEqual(8.8);
      expect(r.load?.timed_runs).toBe(2);
      expect(r.load?.run_speedups?.map((x) => Math.round(x * 10) / 10)).toEqual(a === fast ? [8.8, 5.1] : [5.1, 8.8]);
      expect(c.runner_seconds).toBe(3);
      expect(c.message).toBe('accepted: 5.10x faster than the reference');
    }
  });

  it('an interval that comes to hold 1.00x says "within noise", not "faster"', () => {
    const c = combineTimings(runAt(1.012), runAt(0.995));
    expect(c.benchmarking_result!.speedup).toBeCloseTo(0.995, 2);
    expect(c.message).toMatch(/^accepted: 0\.99x \(95% interval 0\.99-1\.01x\), within noise of the reference$/);
  });

  it('a second run that is not accepted stands as it is; only ranked results and test runs, under non-quick rules, time twice', () => {
    const failed = { verdict: 'incorrect', message: 'incorrect: y[3]', runner_seconds: 2 } as EvaluationState;
    expect(combineTimings(runAt(2), failed)).toBe(failed);
    expect(timeTwice(true, RANKED_TIMING)).toBe(true);
    expect(timeTwice(true, QUICK_TIMING)).toBe(false);
    // A session's attempt: once. A test run ("Run tests", `kforge test`): twice, as a ranked result.
    expect(timeTwice(false, DEFAULT_TIMING)).toBe(false);
    expect(timeTwice(false, DEFAULT_TIMING, true)).toBe(true);
    expect(timeTwice(false, QUICK_TIMING, true)).toBe(false);
  });
});

describe("a case's data against the last-level cache", () => {
  const mib = 2 ** 20;
  const judge = (over: Partial<TimedCase>) =>
    judgeTimed({ device: device(), ranked: false, cases: [timed(over)], timedRuns: 1, baselineName: 'x' }).result
      .cases[0];

  it('says a case fits in the cache of the machine that timed it, and whether its data came from memory', () => {
    expect(judge({ bytes: 8 * mib, llcBytes: 36 * mib, cacheCold: true })?.cache).toEqual({
      bytes: 8 * mib,
      llc_bytes: 36 * mib,
      fits_llc: true,
      from_memory: true,
    });
    // The same case on a machine with a 260 MiB L3 and nothing flushing it (the torch path): cache-resident.
    expect(judge({ bytes: 64 * mib, llcBytes: 260 * mib, cacheCold: false })?.cache).toEqual({
      bytes: 64 * mib,
      llc_bytes: 260 * mib,
      fits_llc: true,
      from_memory: false,
    });
    expect(judge({ bytes: 512 * mib, llcBytes: 36 * mib })?.cache?.fits_llc).toBe(false);
  });

  it('says nothing where the cache or the bytes are unknown', () => {
    expect(judge({ bytes: 8 * mib, llcBytes: 0 })?.cache).toBeUndefined();
    expect(judge({ bytes: 0, llcBytes: 36 * mib })?.cache).toBeUndefined();
    expect(judge({ bytes: 8 * mib })?.cache).toBeUndefined();
  });

  it("holds a cache-resident case's GB/s to no memory peak, and a flushed one's to it", () => {
    // 1 ms for 1 GB is 1000 GB/s against a 50 GB/s peak.
    const run = (cacheCold: boolean) =>
      judgeTimed({
        device: device(50),
        ranked: false,
        cases: [timed({ bytes: 1e9, llcBytes: 4e9, cacheCold })],
        timedRuns: 1,
        baselineName: 'x',
      }).verdict;
    expect(run(true)).toBe('implausible');
    expect(run(false)).toBe('accepted');
  });
});
