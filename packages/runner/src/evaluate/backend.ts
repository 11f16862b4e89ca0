// The one shape of an evaluation backend (C on a cpu, CUDA, PyTorch), what the registry (backends/index.ts) knows of
// each (BackendEntry: the problem kind it evaluates, what it supports on a device), and the one driver that runs any of
// them:
// prepare (outside any sandbox), then in a job sandbox compile, launch the trusted harness (again when the judge's
// re-timing rule asks) and parse its report into an EvaluationState. Every rule that decides a verdict or a figure
// is the judge's (judge.ts); a backend only feeds it its harness's facts.
import type {
  BenchmarkingResult,
  BuildFacts,
  CompileReport,
  Device,
  EvaluationJobPayload,
  EvaluationMode,
  EvaluationState,
  ProblemKind,
} from '@kernelforge/sdk';
import { profileAccepted } from '../profile/attach.js';
import { DEFAULT_TIMING, QUICK_TIMING, RANKED_TIMING, type TimingRules } from '../harness/plan.js';
import type { CgroupLimits } from '../sandbox/cgroup.js';
import { JobSandbox } from '../sandbox/job-sandbox.js';
import type { ProblemDefinition } from '../problems/schema.js';
import type { RunnerSettings } from '../settings.js';
import type { EvaluateOptions } from './options.js';
import { combineTimings, heavyLoad, type RawLoad, shouldRetime, timeTwice } from './judge.js';
import { COMPILING, PROGRESS_FOLDER, type ProgressListener, watchProgress } from './progress.js';
import { waitForQuiet } from './quiet.js';
import { WaitReports } from './waits.js';

/** Thrown when no evaluation can be made at all (no sandbox, unknown problem); the job is retried or failed. */
export class EvaluationSetupError extends Error {}

/** One evaluation as every backend sees it; `problem` is the backend's own kind of problem. */
export interface EvaluationJob<P> {
  payload: EvaluationJobPayload;
  problem: P;
  device: Device;
  ranked: boolean;
  timing: TimingRules;
  /** The head of every state this job ends in. */
  base: { mode: EvaluationMode; evaluated_at: string };
  /** When the evaluation started (performance.now()). */
  started: number;
  /** Seconds since then (a state's runner_seconds). */
  elapsed(): number;
  /** The runner's own directory (build caches, job folders). */
  workDir: string;
  settings: RunnerSettings;
  keepJobDir: boolean;
  /** The wait for a quiet second before each run of a peaks re-measurement (EvaluateOptions.peakRecheckWaitMs). */
  peakRecheckWaitMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Told where the evaluation is: compiling, then what the harness writes to its progress file (progress.ts). */
  onProgress?: ProgressListener | undefined;
}

/** A state decided before the harness ran (the job refused, the candidate failed to compile). */
export interface Refusal {
  refused: EvaluationState;
}

/** What the judge's re-timing rule reads from a harness run. */
export interface TimingFacts {
  load: RawLoad | undefined;
  bench: readonly { ratios?: readonly number[] | undefined }[];
}

/**
 * An evaluation backend. `J` is its prepared job (the EvaluationJob plus what it built for it), `R` one run of its
 * harness. The driver (runBackend) calls prepare, opens the job sandbox from `sandbox`, then compile, launch (once,
 * or twice when the judge says re-time), parse, and always closes the sandbox.
 */
export interface Backend<P, J, R> {
  /** Checks the job and builds what it needs outside the job sandbox (toolchain, cached harness), or refuses it. */
  prepare(job: EvaluationJob<P>): Promise<J | Refusal>;
  /** The job sandbox it needs: folders inside the job folder and the cgroup's limits. */
  sandbox(job: J): { folders: readonly string[]; limits: CgroupLimits };
  /** Stages the job folder and compiles the candidate inside the sandbox: its report (null: nothing to compile). */
  compile(job: J, sandbox: JobSandbox): Promise<{ report: CompileReport | null } | Refusal>;
  /** Runs the trusted harness once: correctness, then the timed phase. */
  launch(job: J, sandbox: JobSandbox): Promise<R>;
  /** What the re-timing rule reads from a run; null when the run has nothing to time again. */
  timingFacts(run: R): TimingFacts | null;
  /** The run's report as the job's state, through the judge (a backend may first measure the device again). */
  parse(
    job: J,
    run: R,
    outcome: { compile: CompileReport | null; timedRuns: number },
  ): EvaluationState | Promise<EvaluationState>;
  /** Optional: one extra, untimed run of an accepted candidate for its profiler facts (profile/attach.ts): they join
      `compile.facts` and change nothing else; null, a throw or an overrun leave the state as judged. */
  profile?(job: J, sandbox: JobSandbox, state: EvaluationState): Promise<BuildFacts | null>;
}

/** What a backend offers on one device: device discovery (devices/discover.ts) asks every registered backend. */
export interface DeviceSupport {
  /** Versions of its toolchains on the device (`python`, `torch`, `cxx`, `cuda`), shown with the device. */
  toolchains?: Record<string, string>;
  /** Why its kind of problem cannot run on the device; absent when it can. */
  unavailable?: string;
}

/** What evaluate() hands the backend a job is for. */
export interface BackendContext {
  opts: EvaluateOptions;
  settings: RunnerSettings;
  /** The catalogue's problem the job names (none for a custom problem or one the runner does not hold). */
  catalogued: ProblemDefinition | undefined;
  /** The job as every backend sees it, with the backend's own problem; its clock (runner_seconds) starts here. */
  job<P>(problem: P): EvaluationJob<P>;
}

/**
 * A backend as the registry (backends/index.ts) lists it: one folder under backends/ holds its driver (a Backend run
 * by runBackend), its report's schema and its toolchain, and exports one of these.
 */
export interface BackendEntry {
  /** Its folder's name under backends/. */
  name: string;
  /** The kind of problem it evaluates (evaluate() picks the backend by it). */
  kind: ProblemKind;
  /** What it offers on `device` (cheap: asked once per device at discovery). */
  supports(device: Device, settings: RunnerSettings): DeviceSupport;
  /** Evaluates one job of its kind (throws EvaluationSetupError when it cannot evaluate at all). */
  evaluate(payload: EvaluationJobPayload, ctx: BackendContext): Promise<EvaluationState>;
}

function isRefusal<J>(x: J | Refusal): x is Refusal {
  return typeof x === 'object' && x !== null && 'refused' in x;
}

/** A test run ("Run tests", `kforge test`): a submission evaluated in benchmark mode, never ranked. */
export function isTestRun(payload: { kind: string; mode: string }): boolean {
  return payload.kind === 'submission' && payload.mode === 'benchmark';
}

/** The timing rules of a job: given ones, `quick` (tests), else the ranked or the default rules. */
export function timingRules(timing: 'default' | 'quick' | TimingRules | undefined, ranked: boolean): TimingRules {
  if (typeof timing === 'object') return timing;
  if (timing === 'quick') return QUICK_TIMING;
  return ranked ? RANKED_TIMING : DEFAULT_TIMING;
}

/** Evaluates one job with `backend`. */
export async function runBackend<P, J, R>(backend: Backend<P, J, R>, job: EvaluationJob<P>): Promise<EvaluationState> {
  const prepared = await backend.prepare(job);
  if (isRefusal(prepared)) return prepared.refused;
  const { folders, limits } = backend.sandbox(prepared);
  const sandbox = JobSandbox.open({
    workDir: job.workDir,
    // The progress folder: the harness's own (a sandboxed harness gets it writable), no worker's.
    folders: [...folders, PROGRESS_FOLDER],
    limits,
    jobCgroup: job.settings.jobCgroup,
    keep: job.keepJobDir,
  });
  let stopWatching = () => {};
  // The waits for the timing lock and for quiet, named in the progress (waits.ts).
  const waits = job.onProgress
    ? new WaitReports(job.onProgress, { deviceId: job.device.id, ranked: job.ranked, timingMs: job.timing.maxMs })
    : null;
  try {
    sandbox.share(sandbox.path(PROGRESS_FOLDER));
    job.onProgress?.(COMPILING);
    const compiled = await backend.compile(prepared, sandbox);
    if (isRefusal(compiled)) return compiled.refused;
    if (waits) stopWatching = watchProgress(sandbox.path(PROGRESS_FOLDER), waits.listener);
    const judged = await launchTimed(backend, prepared, sandbox, job, compiled.report, waits);
    const profile = backend.profile?.bind(backend);
    return await profileAccepted(judged, profile && (() => profile(prepared, sandbox, judged)));
  } finally {
    stopWatching();
    waits?.stop();
    await sandbox.close();
  }
}

/**
 * Runs the harness and judges the run. A ranked result, and an accepted test run, is timed a second time by a fresh
 * harness with fresh workers (not under rules that say no: `quick`, for tests): a run's interval holds only what
 * varied inside that run, so the two are combined (the judge's combineTimings: the lower speedup, intervals holding
 * both). Such a result whose first run was timed while other work kept the machine busy is timed again later
 * instead, once the machine has quieted (bounded), and that second run replaces it: still busy, it is kept but
 * flagged for review as noisy, never ranked silently. A first run that was not accepted is timed again only when
 * the judge's shouldRetime says so (under load, or a wide interval), and the second run stands.
 */
async function launchTimed<P, J, R>(
  backend: Backend<P, J, R>,
  prepared: J,
  sandbox: JobSandbox,
  job: EvaluationJob<P>,
  compile: CompileReport | null,
  waits: WaitReports | null = null,
): Promise<EvaluationState> {
  const aborted = () => {
    if (job.signal?.aborted) throw new EvaluationSetupError('the evaluation was aborted');
  };
  const first = await backend.launch(prepared, sandbox);
  // Its harness has let go of the lock: the note that it holds it goes too.
  waits?.release();
  aborted();
  const firstState = await backend.parse(prepared, first, { compile, timedRuns: 1 });
  const facts = backend.timingFacts(first);
  if (!facts) return firstState;
  const noisy = heavyLoad(facts.load);
  const again =
    shouldRetime(job.ranked, facts.load, 1, job.timing, facts.bench) ||
    (timeTwice(job.ranked, job.timing, isTestRun(job.payload)) && firstState.verdict === 'accepted');
  if (!again) return firstState;
  // Timed under load: later, once the machine has quieted (bounded), not at once beside the same neighbour.
  const quietMs = job.timing.retimeWaitMs ?? 0;
  const wait = noisy
    ? await waitForQuiet(
        quietMs,
        job.signal,
        1000,
        quietMs > 0 ? waits?.quietWait(quietMs, facts.load?.outside_cores) : undefined,
      )
    : null;
  const second = await backend.launch(prepared, sandbox);
  waits?.release();
  aborted();
  // The wait is the driver's fact, not the harness's: it joins the second run's load, which the judge publishes.
  const load = backend.timingFacts(second)?.load;
  if (load && wait) load.retime_wait_ms = Math.round(wait.waitedMs);
  const secondState = await backend.parse(prepared, second, { compile, timedRuns: 2 });
  return retimedState(firstState, secondState, noisy, load !== undefined && heavyLoad(load));
}

/**
 * What a ranked result timed twice publishes. A first timing under heavy load gives way to a second taken once the
 * machine quieted; otherwise the two are combined (combineTimings: the slower speedup, the hull of the intervals), so
 * a difference between two harness processes (where each process's pages landed, say) shows in the interval. That
 * holds most when both ran under load: on the 2-core VM at load 14-18, identical ReLU read 0.818x [0.772, 0.973] in
 * one second timing, which alone was published (2026-11-27, bench/README.md), an interval that excluded 1.00x.
 */
export function retimedState(
  first: EvaluationState,
  second: EvaluationState,
  firstNoisy: boolean,
  secondNoisy: boolean,
): EvaluationState {
  if (firstNoisy && !secondNoisy) return second;
  const combined = combineTimings(first, second);
  // The wait before the second timing is the pair's fact, whichever run's figures are shown.
  const wait = second.benchmarking_result?.load?.retime_wait_ms;
  const load = combined.benchmarking_result?.load;
  if (wait === undefined || !load || load.retime_wait_ms !== undefined) return combined;
  return {
    ...combined,
    benchmarking_result: {
      ...(combined.benchmarking_result as BenchmarkingResult),
      load: { ...load, retime_wait_ms: wait },
    },
  };
}
