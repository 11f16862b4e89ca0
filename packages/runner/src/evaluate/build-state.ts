// Turns the harness's report into the sdk EvaluationState: verdict, clock check, statistics, plausibility.
import type {
  BenchmarkCase,
  CompileReport,
  Device,
  EvaluationEnvironment,
  EvaluationMode,
  EvaluationState,
  Verdict,
} from '@kernelforge/sdk';
import type { HarnessRun } from '../harness/run-harness.js';
import type { ProblemDefinition } from '../problems/schema.js';
import { benchCase, implausibleReason, reviewReasons } from './plausibility.js';
import { median, timingStats } from './stats.js';

/** Inside and outside timings must agree within 20% plus a slack, on calls whose outside median is over
    CLOCK_CHECK_MIN_MS. The outside time also holds what a round trip costs beyond the no-op median the
    harness subtracts: waking the worker's thread and its reply reaching the harness. On a busy 2-core
    machine that is milliseconds at times, so a fixed share alone called honest short kernels cheats (a
    65,536-element ReLU: inside 0.041 ms, outside 0.139 ms; under heavier load inside 0.05 ms, outside
    2.7 ms). The slack is the larger of 0.5 ms and twice the 90th percentile of the no-op round trips the
    harness measured in the same run (which grows with the machine's wake-up latency), and calls under 1 ms
    are not checked: there the two clocks cannot be told apart from scheduling noise. A candidate that
    rescales its clock still disagrees on calls long enough to matter, and the reported time is always the
    outside one, so a disagreeing clock never changes a ranking; the check is a tripwire for tampering. */
export const CLOCK_TOLERANCE = 0.2;
export const CLOCK_SLACK_MS = 0.5;
export const CLOCK_CHECK_MIN_MS = 1;
/** A shared or virtual machine delays some wake-ups by milliseconds, so samples are compared pairwise and
    only some of them must agree: a tenth, and at least two. A candidate that rescales its clock agrees on
    none. Scheduling delay only ever makes the outside time longer, and under heavy outside load most
    samples carry some: on the 2-core VM at load 15, a plain 65,536-element ReLU had 24% of its samples
    agree (inside 0.033 ms, outside median 3.0 ms), and the earlier quarter rule rejected it. */
export const CLOCK_MIN_AGREEING = 0.1;
export const CLOCK_MIN_AGREEING_SAMPLES = 2;
/** Too few samples on a loaded machine say nothing either way (the default rules take at least 10). */
export const CLOCK_CHECK_MIN_SAMPLES = 5;

/** Whether a case's inside (the candidate's own clock) and outside timings agree well enough: see above. */
export function clockCheck(
  outside: readonly number[],
  inside: readonly number[],
  slackMs = CLOCK_SLACK_MS,
): { ok: boolean; agreeing: number; needed: number } {
  const agreeing = Math.round(clockAgreement(outside, inside, slackMs) * outside.length);
  const needed = Math.max(CLOCK_MIN_AGREEING_SAMPLES, Math.ceil(CLOCK_MIN_AGREEING * outside.length));
  return { ok: agreeing >= needed, agreeing, needed };
}

export function clockAgreement(
  outside: readonly number[],
  inside: readonly number[],
  slackMs = CLOCK_SLACK_MS,
): number {
  let ok = 0;
  for (const [i, o] of outside.entries()) {
    const inn = inside[i] ?? 0;
    if (o > 0 && Math.abs(inn - o) <= CLOCK_TOLERANCE * o + slackMs) ok++;
  }
  return outside.length ? ok / outside.length : 1;
}

/** Outside work above this many cores (or a quarter of the machine, whichever is more) during a timed phase
    makes its times noisy: ranked runs are timed again, and flagged for review if it persists. */
export const NOISY_OUTSIDE_CORES = 0.5;

type HarnessLoad = NonNullable<NonNullable<HarnessRun['report']>['load']>;

export function heavyLoad(load: HarnessLoad | undefined): boolean {
  if (!load || load.wall_ms < 200) return false; // /proc/stat counts in 10 ms ticks: too coarse for less
  return load.outside_cores > Math.max(NOISY_OUTSIDE_CORES, load.cores / 4) || load.lock_gave_up;
}

export function stateFromReport(a: {
  problem: ProblemDefinition;
  device: Device;
  ranked: boolean;
  run: HarnessRun;
  /** How many times the benchmark phase was timed (a ranked run under heavy outside load is timed again). */
  timedRuns?: number;
  compile: CompileReport;
  environment: EvaluationEnvironment;
  base: { mode: EvaluationMode; evaluated_at: string };
  runnerSeconds: number;
}): EvaluationState {
  const { run, ranked } = a;
  const output = ranked ? {} : { stdout: run.stdout, stderr: run.stderr };
  const common = {
    ...a.base,
    compile: a.compile,
    environment: a.environment,
    runner_seconds: a.runnerSeconds,
    ...output,
  };
  const r = run.report;
  if (!r) {
    return {
      ...common,
      verdict: run.timedOut ? 'timeout' : 'runtime_error',
      message: `${run.timedOut ? 'timeout' : 'runtime_error'}: ${run.failure ?? 'no report'}`,
      correctness: null,
    };
  }
  const correctness = {
    passed:
      r.correctness.length > 0 &&
      r.correctness.every((c) => c.passed) &&
      r.verdict !== 'incorrect' &&
      r.verdict !== 'nondeterministic',
    // Ranked seeds are the submission's secret: a report (readable by anyone who can see the submission)
    // never carries them.
    cases: r.correctness.map(({ seed, message, ...c }) => ({
      ...c,
      ...(ranked ? {} : { seed }),
      ...(message === undefined ? {} : { message }),
    })),
  };
  if (r.verdict !== 'accepted') {
    return { ...common, verdict: r.verdict, message: `${r.verdict}: ${r.message}`, correctness };
  }
  const cases: BenchmarkCase[] = r.bench.map((b) =>
    benchCase(
      a.problem,
      a.device,
      b.name,
      b.sizes,
      timingStats(b.optimized),
      timingStats(b.baseline),
      b.inside.length ? median(b.inside) : undefined,
    ),
  ); // A ranked run's benchmark sizes are hidden: the figures above used them, the report does not show them.
  const shown = ranked ? cases.map((c) => ({ ...c, sizes: {} })) : cases;

  const optimized = cases.reduce((s, c) => s + c.optimized.median_ms, 0);
  const baseline = cases.reduce((s, c) => s + c.baseline.median_ms, 0);
  const speedup = optimized > 0 ? baseline / optimized : 0;
  const seconds = optimized / 1000;
  const totals = cases.reduce(
    (t, c) => ({
      gb: t.gb + c.gbps * (c.optimized.median_ms / 1000),
      gf: t.gf + c.gflops * (c.optimized.median_ms / 1000),
    }),
    { gb: 0, gf: 0 },
  );
  const result = {
    optimized_time: optimized,
    baseline_time: baseline,
    speedup,
    gbps: seconds > 0 ? totals.gb / seconds : 0,
    gflops: seconds > 0 ? totals.gf / seconds : 0,
    fraction_of_peak: Math.max(0, ...cases.map((c) => c.fraction_of_peak)),
    cases: shown,
    flagged_for_review: false,
    review_reasons: [] as string[],
    ...(r.load
      ? {
          load: {
            outside_cores: Math.round(r.load.outside_cores * 100) / 100,
            cores: r.load.cores,
            lock: r.load.lock,
            lock_wait_ms: r.load.lock_wait_ms,
            noisy: heavyLoad(r.load),
            timed_runs: a.timedRuns ?? 1,
          },
        }
      : {}),
  };
  let verdict: Verdict = 'accepted';
  let message = `accepted: ${speedup >= 1 ? `${speedup.toFixed(2)}x faster than` : `${(1 / speedup).toFixed(2)}x slower than`} the reference`;
  for (const [i, c] of cases.entries()) {
    const b = r.bench[i];
    if (!b || c.optimized.median_ms <= CLOCK_CHECK_MIN_MS || b.optimized.length < CLOCK_CHECK_MIN_SAMPLES) continue;
    const check = clockCheck(b.optimized, b.inside, Math.max(CLOCK_SLACK_MS, 2 * (r.nop_p90_ms ?? 0)));
    if (!check.ok) {
      verdict = 'rejected';
      message = `rejected: case ${c.name}: the candidate's own clock disagrees with the harness's outside timing (inside ${(c.inside_ms ?? 0).toFixed(3)} ms, outside ${c.optimized.median_ms.toFixed(3)} ms; ${check.agreeing} of ${b.optimized.length} samples within ${CLOCK_TOLERANCE * 100}%, ${check.needed} needed): clock tampering?`;
      break;
    }
  }
  if (verdict === 'accepted') {
    const reason = cases.map((c) => implausibleReason(c, a.device)).find((x) => x !== undefined);
    if (reason) {
      verdict = 'implausible';
      message = `implausible: ${reason}`;
    }
  }
  if (verdict === 'accepted') {
    result.review_reasons = reviewReasons(cases, speedup);
    if (result.load?.noisy)
      result.review_reasons.push(
        r.load?.lock_gave_up
          ? 'timed without the device lock (another runner held it for over 2 minutes): times may be noisy'
          : `timed while other work kept ${result.load.outside_cores.toFixed(1)} of ${result.load.cores} cores busy: times may be noisy`,
      );
    result.flagged_for_review = result.review_reasons.length > 0;
  }
  return {
    ...common,
    verdict,
    message,
    correctness,
    ...(verdict === 'accepted' || verdict === 'implausible'
      ? { benchmarking_result: result }
      : { benchmarking_result: null }),
  };
}
