// Turns the C harness's report (facts: samples, flagged calls, the candidate's own clock, load) into the sdk
// EvaluationState. Every rule that decides the verdict and the figures is the judge's (judge.ts).
import type { CompileReport, Device, EvaluationEnvironment, EvaluationMode, EvaluationState } from '@kernelforge/sdk';
import type { HarnessRun } from './harness/run-harness.js';
import { deviceLlcBytes } from '../../devices/cpu.js';
import { evalExpr } from '../../problems/expr.js';
import type { ProblemDefinition } from '../../problems/schema.js';
import type { HarnessReport } from './report-json.js';
import { judgeTimed, type TimedCase } from '../../evaluate/judge.js';
import { judgeFailure, verdictOf } from '../../evaluate/judge/facts.js';

export {
  CLOCK_CHECK_MIN_MS,
  CLOCK_CHECK_MIN_SAMPLES,
  CLOCK_MIN_AGREEING,
  CLOCK_MIN_AGREEING_SAMPLES,
  CLOCK_SLACK_MS,
  CLOCK_TOLERANCE,
  clockAgreement,
  clockCheck,
  heavyLoad,
  NOISY_OUTSIDE_CORES,
} from '../../evaluate/judge.js';

function safe(f: () => number): number {
  try {
    const v = f();
    return Number.isFinite(v) ? v : 0;
  } catch {
    return 0;
  }
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
    // The driver's facts: the harness ran past its limit, or ended without a report.
    const verdict = verdictOf(run.timedOut ? 'harness_timeout' : 'no_report');
    return { ...common, verdict, message: `${verdict}: ${run.failure ?? 'no report'}`, correctness: null };
  }
  // A failure the harness saw: its fact's verdict (judge/facts.ts), the harness's own only compared with it.
  const failure = judgeFailure(r);
  const correctness = correctnessOf(r, ranked, failure?.verdict);
  if (failure?.mismatch)
    return {
      ...common,
      verdict: 'runtime_error',
      message: `runtime_error: ${failure.mismatch}: ${r.message}`,
      correctness: { ...correctness, passed: false },
    };
  if (failure) return { ...common, verdict: failure.verdict, message: `${failure.verdict}: ${r.message}`, correctness };
  const judged = judgeTimed({
    device: a.device,
    ranked,
    cases: timedCases(a.problem, r, a.device.kind === 'cpu' ? deviceLlcBytes(a.device) : 0),
    load: r.load,
    timedRuns: a.timedRuns ?? 1,
    nopP90Ms: r.nop_p90_ms,
    baselineName: 'the reference',
    // A ranked run's benchmark sizes are hidden: the figures used them, the report does not show them.
    hideSizes: ranked,
    ...(r.probe ? { probe: r.probe } : {}),
  });
  const { verdict, message, result } = judged;
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

function correctnessOf(
  r: HarnessReport,
  ranked: boolean,
  verdict: string | undefined,
): NonNullable<EvaluationState['correctness']> {
  return {
    passed:
      r.correctness.length > 0 &&
      r.correctness.every((c) => c.passed) &&
      verdict !== 'incorrect' &&
      verdict !== 'nondeterministic',
    // Ranked seeds are the submission's secret: a report (readable by anyone who can see the submission)
    // never carries them.
    cases: r.correctness.map(({ seed, message, ...c }) => ({
      ...c,
      ...(ranked ? {} : { seed }),
      ...(message === undefined ? {} : { message }),
    })),
  };
}

/** The report's cases as the judge reads them, with the problem's cost formulas at each case's sizes. */
function timedCases(problem: ProblemDefinition, r: HarnessReport, llcBytes: number): TimedCase[] {
  return r.bench.map((b) => ({
    name: b.name,
    sizes: b.sizes,
    optimized: b.optimized,
    baseline: b.baseline,
    flagged: b.flagged ?? 0,
    inside: b.inside,
    ratios: b.ratios,
    // cuda: the outside times are shown; they bound the events' only where the harness's probe ended both sides' calls.
    ...(b.outside ? { outside: b.outside } : {}),
    ...(b.low_clock_kept ? { lowClockKept: b.low_clock_kept } : {}),
    ...(r.probe?.candidate && r.probe.baseline ? { baselineOutside: b.baseline_outside } : {}),
    flops: safe(() => evalExpr(problem.cost.flops, b.sizes)),
    bytes: safe(() => evalExpr(problem.cost.bytes, b.sizes)),
    // The C harness flushes the caches before each sample of a case smaller than twice the last-level cache.
    cacheCold: true,
    llcBytes,
  }));
}
