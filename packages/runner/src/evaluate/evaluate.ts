// Evaluates one candidate end to end: build (cached), compile in the sandbox, run the harness, write the report.
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, rmSync } from 'node:fs';
import { hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Device, EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { compileCandidate } from '../compile/compile-candidate.js';
import { toolchainFor } from '../compile/toolchain.js';
import { buildHarness, makeShared, stageWorkerObjects } from '../harness/build.js';
import { DEFAULT_TIMING, planText, QUICK_TIMING, RANKED_TIMING, type TimingRules } from '../harness/plan.js';
import { runHarness } from '../harness/run-harness.js';
import { customProblemDefinition } from '../problems/custom.js';
import type { CaseDef, Catalogue, ProblemDefinition } from '../problems/schema.js';
import { elementCount } from '../problems/validate.js';
import { sandboxAvailable, sandboxName } from '../sandbox/bwrap.js';
import { JobCgroup, defaultJobCpus } from '../sandbox/cgroup.js';
import { jobUid, NOBODY_UID } from '../sandbox/spawn.js';
import { llcBytes } from '../devices/cpu.js';
import { refreshCpuPeaks } from '../devices/remeasure.js';
import { stateFromReport } from './build-state.js';
import { shouldRetime } from './judge.js';
import { evaluateTorch, torchJobProblem, torchToolchain } from './torch.js';
import { seedsFor } from './seeds.js';

export interface EvaluateOptions {
  problems: Catalogue;
  device: Device;
  /** The runner's own directory: build cache and per-job folders live here (never the server's data dir). */
  workDir: string;
  signal?: AbortSignal;
  /** `quick` is for tests: few samples, short budgets. Ranked mode always uses the ranked rules unless given rules. */
  timing?: 'default' | 'quick' | TimingRules;
  /** Keep the job folder for inspection. */
  keepJobDir?: boolean;
  /** cuda: the device's compute capability, e.g. "9.0". */
  computeCapability?: string;
  /**
   * Run candidates without a sandbox when bubblewrap is missing (unsafe; the operator's KFORGE_ALLOW_UNSANDBOXED=1,
   * read by the runner's and the server's entry points). Default false: no sandbox, no evaluation.
   */
  allowUnsandboxed?: boolean;
  /** pytorch problems: also time the reference compiled with TorchScript freeze (default true). */
  compiledBaseline?: boolean;
  /** Called once the harness has run, with where the time went (bench/runner-profile.mjs). */
  onProfile?: (profile: EvaluationProfile) => void;
}

/** Milliseconds per phase of one evaluation; `harness` is the harness's own breakdown (see c/harness_main.c). */
export interface EvaluationProfile {
  build_ms: number;
  compile_ms: number;
  harness_ms: number;
  total_ms: number;
  harness: Record<string, number>;
}

/** Thrown when no evaluation can be made at all (no sandbox, unknown problem); the job is retried or failed. */
export class EvaluationSetupError extends Error {}

export function resolveProblem(payload: EvaluationJobPayload, problems: Catalogue): ProblemDefinition {
  if (payload.custom_problem) return customProblemDefinition(payload.problem_name, payload.custom_problem);
  const p = problems.get(payload.problem_name);
  if (!p) throw new EvaluationSetupError(`unknown problem ${payload.problem_name}`);
  return p;
}

function timingRules(opts: EvaluateOptions, ranked: boolean): TimingRules {
  if (typeof opts.timing === 'object') return opts.timing;
  if (opts.timing === 'quick') return QUICK_TIMING;
  return ranked ? RANKED_TIMING : DEFAULT_TIMING;
}

export async function evaluate(payload: EvaluationJobPayload, opts: EvaluateOptions): Promise<EvaluationState> {
  const started = performance.now();
  if (!sandboxAvailable() && !opts.allowUnsandboxed)
    throw new EvaluationSetupError(
      'bubblewrap (bwrap) is not available: refusing to run untrusted code. Install bubblewrap, or set KFORGE_ALLOW_UNSANDBOXED=1 for unsafe local runs.',
    );
  const catalogued = payload.custom_problem ? undefined : opts.problems.get(payload.problem_name);
  if (payload.torch_problem || catalogued?.kind === 'pytorch') {
    const tp = torchJobProblem(payload, catalogued, opts.device);
    if (!tp) throw new EvaluationSetupError(`${payload.problem_name} has no sizes for ${opts.device.id}`);
    const tc = torchToolchain();
    if (!tc.ok) throw new EvaluationSetupError(`pytorch problems are unavailable on this runner: ${tc.reason}`);
    return evaluateTorch(payload, tp, {
      device: opts.device,
      workDir: opts.workDir,
      ...(opts.timing ? { timing: opts.timing } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.keepJobDir ? { keepJobDir: true } : {}),
      ...(opts.compiledBaseline === false ? { compiledBaseline: false } : {}),
    });
  }
  const problem = resolveProblem(payload, opts.problems);
  const device = opts.device;
  const backend = device.kind;
  const ranked = payload.mode === 'ranked';
  const base = {
    mode: payload.mode,
    evaluated_at: new Date().toISOString(),
  } as const;
  const elapsed = () => (performance.now() - started) / 1000;
  const okLanguage =
    payload.language !== 'pytorch' && (backend === 'cuda' ? payload.language === 'cuda' : payload.language !== 'cuda');
  if (!okLanguage || !problem.backends.includes(backend)) {
    return {
      ...base,
      verdict: 'compile_error',
      message: `compile_error: ${payload.language} sources cannot run on ${device.id}${problem.backends.includes(backend) ? '' : ` (${problem.name} supports ${problem.backends.join(', ')})`}`,
      compile: {
        ok: false,
        compiler: 'none',
        flags: [],
        log: `language ${payload.language} is not supported on a ${backend} device`,
        duration_ms: 0,
      },
      correctness: null,
      runner_seconds: elapsed(),
    };
  }
  const tc = toolchainFor(payload.language, opts.computeCapability);
  const environment = {
    device_id: device.id,
    device_name: device.name,
    compiler: tc.compiler,
    compiler_version: tc.version,
    flags: [...tc.flags, ...tc.linkFlags],
    sandbox: sandboxName(),
    runner: hostname(),
  };
  const tBuild = performance.now();
  const built = await buildHarness(problem, opts.workDir, backend, opts.computeCapability);
  const buildMs = performance.now() - tBuild;
  // The job folder holds the plan and the launch lines (the harness's); its box/ folder is all a sandbox
  // sees (the candidate's source and binary). Only the harness and the runner read the job folder itself:
  // a sandbox's uid may pass through it (0711) to reach box/, but not list or read it. A custom problem's
  // harness runs sandboxed under the job's uid, and its plan holds nothing secret (never ranked).
  const jobDir = join(opts.workDir, 'jobs', randomUUID());
  const boxDir = join(jobDir, 'box');
  mkdirSync(boxDir, { recursive: true });
  chmodSync(jobDir, 0o711);
  let uid = jobUid();
  try {
    makeShared(boxDir, uid);
  } catch (error) {
    // A root whose user namespace maps only some uids (rootless containers map 65,536): the job's own uid
    // does not exist here, so fall back to nobody (a fork bomb can then hold up sandboxes beside it).
    if (uid === undefined) throw error;
    uid = NOBODY_UID;
    makeShared(boxDir, uid);
  }
  if (problem.custom && process.getuid?.() === 0) chownSync(jobDir, uid ?? NOBODY_UID, uid ?? NOBODY_UID);
  const cgroup = JobCgroup.create(jobLimits(problem));
  try {
    const objects = stageWorkerObjects(built, boxDir);
    const compiled = await compileCandidate({
      jobDir: boxDir,
      language: payload.language,
      source: payload.source,
      toolchain: tc,
      workerObjects: objects,
      uid,
      cgroup,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (!compiled.report.ok) {
      const verdict = compiled.timedOut ? 'compile_timeout' : 'compile_error';
      const firstError = compiled.report.log.split('\n').find((l) => /error/i.test(l)) ?? '';
      return {
        ...base,
        verdict,
        message: `${verdict}: ${compiled.timedOut ? 'the compiler ran past 120 s' : firstError.trim().slice(0, 300) || 'the compiler failed'}`,
        compile: compiled.report,
        correctness: null,
        environment,
        runner_seconds: elapsed(),
      };
    }
    const benchCases = ranked && problem.cases.ranked.length > 0 ? problem.cases.ranked : problem.cases.benchmark;
    // Ranked: seeds of this submission alone, from the leaderboard's secret and the submission's id.
    const { seeds, benchSeed } = seedsFor(payload.mode, payload.secret_seed, payload.target_id);
    const timing = timingRules(opts, ranked);
    const dataBytes = dataBytesOf(problem, [...problem.cases.test, ...benchCases]);
    const harnessRun = () =>
      runHarness({
        built,
        jobDir,
        boxDir,
        deviceId: device.id,
        cgroup,
        plan: planText({
          problem,
          ranked,
          cuda: backend === 'cuda',
          testCases: problem.cases.test,
          benchCases,
          seeds,
          benchSeed,
          timing,
          llcBytes: backend === 'cpu' ? llcBytes() : 0,
        }),
        dataBytes,
        maxTimingMs: timing.maxMs,
        cuda: backend === 'cuda',
        sandboxHarness: problem.custom,
        uid,
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    let run = await harnessRun();
    let timedRuns = 1;
    // A ranked result timed while other work kept the machine busy, or whose speedup interval came out wider than
    // the judge's RETIME_HALF_WIDTH, is timed again once; still busy, it is kept but flagged for review as noisy,
    // never ranked silently; still wide, it is published with its interval.
    if (shouldRetime(ranked, run.report?.load, timedRuns, timing, run.report?.bench) && !opts.signal?.aborted) {
      run = await harnessRun();
      timedRuns = 2;
    }
    if (opts.signal?.aborted) throw new EvaluationSetupError('the evaluation was aborted');
    opts.onProfile?.({
      build_ms: buildMs,
      compile_ms: compiled.report.duration_ms,
      harness_ms: run.wallMs,
      total_ms: performance.now() - started,
      harness: run.report?.profile ?? {},
    });
    const make = () =>
      stateFromReport({
        problem,
        device,
        ranked,
        run,
        timedRuns,
        compile: compiled.report,
        environment,
        base,
        runnerSeconds: elapsed(),
      });
    const state = make();
    // Above a cpu peak measured at start-up? Measure again before calling it impossible (the machine may have been busy
    // then). Near the peak (flagged for review on the peak alone): the same, at most once every 10 minutes, so a
    // runner started on a busy machine does not flag every good kernel, and a truly fast kernel does not pay for a
    // re-measurement on every evaluation.
    const recheck = peakRecheck(state);
    if (recheck === 'now' && refreshCpuPeaks(device)) return make();
    if (recheck === 'throttled' && refreshCpuPeaks(device, { minIntervalMs: 10 * 60_000 })) return make();
    return state;
  } finally {
    await cgroup?.remove();
    if (!opts.keepJobDir) rmSync(jobDir, { recursive: true, force: true });
  }
}

/** The job's cgroup limits: memory for the harness's and the worker's copies of the largest case plus the
    compiler's, processes for the compile's driver tree and OpenMP teams, cpu up to every core. */
function jobLimits(problem: ProblemDefinition) {
  const largest = dataBytesOf(problem, [...problem.cases.test, ...problem.cases.benchmark, ...problem.cases.ranked]);
  const total = totalmem();
  return {
    memoryBytes: Math.min(Math.floor(total * 0.75), 6 * 2 ** 30 + 8 * largest),
    pids: 512,
    cpus: defaultJobCpus(),
  };
}

/** A result at this fraction of a measured peak gets the peaks measured again (at most every 10 minutes). */
export const RECHECK_FRACTION = 0.75;

/**
 * Whether a result calls for measuring the cpu's peaks again: `now` when it is above the peak (implausible),
 * `throttled` when it is flagged for review for nearing it or reaches RECHECK_FRACTION of it, null otherwise.
 */
export function peakRecheck(
  state: Pick<EvaluationState, 'verdict' | 'benchmarking_result'>,
): 'now' | 'throttled' | null {
  if (state.verdict === 'implausible') return 'now';
  const r = state.benchmarking_result;
  // Near a peak (flagged) or within reach of it (3/4): a peak measured on a busy machine may be the limit here.
  if (r?.review_reasons?.some((x) => /of peak/.test(x))) return 'throttled';
  return (r?.fraction_of_peak ?? 0) >= RECHECK_FRACTION ? 'throttled' : null;
}

/** Bytes of the largest case's arguments (inputs and outputs). */
function dataBytesOf(problem: ProblemDefinition, cases: readonly CaseDef[]): number {
  return Math.max(
    0,
    ...cases.map((c) =>
      problem.signature.reduce(
        (s, a) =>
          s +
          (a.shape
            ? elementCount(a.shape, c.sizes) * (a.type.startsWith('f64') || a.type.startsWith('i64') ? 8 : 4)
            : 0),
        0,
      ),
    ),
  );
}
