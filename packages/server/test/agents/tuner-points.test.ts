// What the tuner reads from its earlier attempts: with paired figures, points compared at one reference speed, so
// a quiet minute does not make a slower point look best (issue 20).
import type { BenchmarkingResult, EvaluationState } from '@kernelforge/sdk';
import { expect, test } from 'vitest';
import type { AgentAttemptView } from '../../src/agents/index.js';
import { startPoint, triedPoints } from '../../src/agents/tuner/points.js';
import { loadSpace, pickVariant } from '../../src/agents/tuner/space.js';
import { PROBLEMS_DIR } from './helpers/problems.js';

const space = loadSpace(PROBLEMS_DIR, '19_ReLU');
const variant = space && pickVariant(space, 'cpu', 'avx2');
if (!variant) throw new Error('19_ReLU has no cpu tuning space');

/** An accepted attempt at the start point, measured `time` beside a reference timed at `baseline`. */
function attempt(n: number, time: number, baseline: number, speedup: number, paired = true): AgentAttemptView {
  const bench: BenchmarkingResult = {
    optimized_time: time,
    baseline_time: baseline,
    speedup,
    ...(paired ? { speedup_interval: [speedup * 0.99, speedup * 1.01] as [number, number] } : {}),
    gbps: 0,
    gflops: 0,
    fraction_of_peak: 0,
    cases: [],
    flagged_for_review: false,
    review_reasons: [],
  };
  const state: EvaluationState = {
    mode: 'benchmark',
    verdict: 'accepted',
    message: 'accepted',
    compile: { ok: true, compiler: 'cc', flags: [], log: '', duration_ms: 0 },
    correctness: { passed: true, cases: [] },
    benchmarking_result: bench,
    runner_seconds: 1,
    evaluated_at: new Date().toISOString(),
  };
  return {
    attempt_number: n,
    status: 'completed',
    source: '',
    explanation: '',
    evaluation_state: state,
    agent_meta: { agent: 'tuner', variant: variant?.name, params: startPoint(variant as NonNullable<typeof variant>) },
  };
}

test('with paired figures, points are compared by speedup at the session reference speed, not by the minute they ran in', () => {
  // #2 ran in a quiet minute (the reference itself took 1.8 ms then) and is truly slower than the reference; #3
  // ran in a slow minute and is truly the fastest.
  const history = [attempt(1, 3.0, 3.0, 1.0), attempt(2, 1.9, 1.8, 0.95), attempt(3, 2.6, 3.1, 1.19)];
  const times = triedPoints(variant, history).map((t) => t.time as number);
  // The reference's median time over the session (3.0 ms) over each point's speedup.
  expect(times.map((t) => Number(t.toFixed(3)))).toEqual([3, 3.158, 2.521]);
  expect(times.indexOf(Math.min(...times))).toBe(2);
});

test('without paired figures (an older runner) the measured times stand', () => {
  const history = [attempt(1, 3.0, 3.0, 1.0, false), attempt(2, 1.9, 1.8, 0.95), attempt(3, 2.6, 3.1, 1.19)];
  expect(triedPoints(variant, history).map((t) => t.time)).toEqual([3.0, 1.9, 2.6]);
});
