// The one judge (src/evaluate/judge.ts): the rules both backends' verdicts and figures come from, on facts given
// here (no harness, no machine): flagged calls, the stopping rule, the load rule however short the timed phase,
// the roofline floor, review reasons, and the plan lines that carry the mid-run rules to the harnesses.
import type { Device } from '@kernelforge/sdk';
import { describe, expect, it } from 'vitest';
import { planText } from '../src/harness/plan.js';
import {
  FLAGGED_MIN,
  FLAGGED_SHARE,
  heavyLoad,
  judgeTimed,
  LOAD_WINDOW_MS,
  medianInterval,
  medianRse,
  planRules,
  shouldRetime,
  type TimedCase,
  withFlagged,
} from '../src/evaluate/judge.js';
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
