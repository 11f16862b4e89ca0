// The C-ABI backends: a C/C++ candidate on a cpu (`cBackend`) and a CUDA candidate on a GPU (`cudaBackend`). Both
// build the problem's trusted C harness (cached), compile the candidate in the job sandbox with the fixed flags
// and run the harness, which starts the candidate in its own sandboxed worker process and times it from outside.
import { chmodSync, chownSync } from 'node:fs';
import { hostname } from 'node:os';
import type { BuildFacts, CompileReport, EvaluationEnvironment, EvaluationState } from '@kernelforge/sdk';
import { compileCandidate } from './compile/compile-candidate.js';
import { type Toolchain, toolchainFor } from './compile/toolchain.js';
import { deviceLlcBytes } from '../../devices/cpu.js';
import { type BuiltHarness, buildHarness, stageWorkerObjects } from './harness/build.js';
import { planText } from '../../harness/plan.js';
import { type HarnessOptions, type HarnessRun, runHarness } from './harness/run-harness.js';
import type { CaseDef, ProblemDefinition } from '../../problems/schema.js';
import { elementCount } from '../../problems/validate.js';
import {
  NCU_EXIT_WAIT_MS,
  NCU_RUN_TIMING,
  NCU_TMP_BYTES,
  ncuCapability,
  ncuCountersOf,
  ncuKernelNames,
  ncuWorkerPrefix,
  withCounters,
} from '../../profile/ncu-run.js';
import { sandboxName } from '../../sandbox/bwrap.js';
import { type JobSandbox, jobCgroupLimits } from '../../sandbox/job-sandbox.js';
import { NOBODY_UID } from '../../sandbox/spawn.js';
import type { Backend, EvaluationJob, Refusal } from '../../evaluate/backend.js';
import type { EvaluationProfile } from '../../evaluate/options.js';
import { stateFromReport } from './report.js';
import { judgeWithPeakRecheck } from '../../evaluate/judge/peak.js';
import { seedsFor } from '../../evaluate/seeds.js';

/** What a C-ABI job needs beside the common ones. */
export interface CAbiProblem {
  definition: ProblemDefinition;
  /** cuda: the device's compute capability, e.g. "9.0". */
  computeCapability?: string | undefined;
  /** Called once the harness has run, with where the time went (bench/runner-profile.mjs). */
  onProfile?: ((profile: EvaluationProfile) => void) | undefined;
}

/** A C-ABI job once prepared: its toolchain, the built harness, cases and seeds. */
interface CAbiJob {
  job: EvaluationJob<CAbiProblem>;
  kind: 'cpu' | 'cuda';
  toolchain: Toolchain;
  environment: EvaluationEnvironment;
  built: BuiltHarness;
  buildMs: number;
  benchCases: readonly CaseDef[];
  seeds: bigint[];
  benchSeed: bigint;
  /** Data bytes of the largest case this run checks or times. */
  dataBytes: number;
}

/** The state of a job whose source's language this device cannot run (nothing was compiled). */
function wrongLanguage(job: EvaluationJob<CAbiProblem>, kind: 'cpu' | 'cuda'): Refusal | null {
  const { payload, device } = job;
  const problem = job.problem.definition;
  const okLanguage =
    payload.language !== 'pytorch' && (kind === 'cuda' ? payload.language === 'cuda' : payload.language !== 'cuda');
  if (okLanguage && problem.backends.includes(kind)) return null;
  return {
    refused: {
      ...job.base,
      verdict: 'compile_error',
      message: `compile_error: ${payload.language} sources cannot run on ${device.id}${problem.backends.includes(kind) ? '' : ` (${problem.name} supports ${problem.backends.join(', ')})`}`,
      compile: {
        ok: false,
        compiler: 'none',
        flags: [],
        log: `language ${payload.language} is not supported on a ${kind} device`,
        duration_ms: 0,
      },
      correctness: null,
      runner_seconds: job.elapsed(),
    },
  };
}

async function prepare(job: EvaluationJob<CAbiProblem>, kind: 'cpu' | 'cuda'): Promise<CAbiJob | Refusal> {
  const refusal = wrongLanguage(job, kind);
  if (refusal) return refusal;
  const { payload, device, ranked } = job;
  const problem = job.problem.definition;
  const toolchain = toolchainFor(payload.language, job.problem.computeCapability);
  const environment = {
    device_id: device.id,
    device_name: device.name,
    compiler: toolchain.compiler,
    compiler_version: toolchain.version,
    flags: [...toolchain.flags, ...toolchain.linkFlags],
    sandbox: sandboxName(job.settings.jobCgroup),
    runner: hostname(),
  };
  const tBuild = performance.now();
  const built = await buildHarness(problem, job.workDir, kind, job.problem.computeCapability);
  const buildMs = performance.now() - tBuild;
  const benchCases = ranked && problem.cases.ranked.length > 0 ? problem.cases.ranked : problem.cases.benchmark;
  // Ranked: seeds of this submission alone, from the leaderboard's secret and the submission's id.
  const { seeds, benchSeed } = seedsFor(payload.mode, payload.secret_seed, payload.target_id);
  const dataBytes = dataBytesOf(problem, [...problem.cases.test, ...benchCases]);
  return { job, kind, toolchain, environment, built, buildMs, benchCases, seeds, benchSeed, dataBytes };
}

/**
 * The job folder holds the plan and the launch lines (the harness's); its box/ folder is all a sandbox sees (the
 * candidate's source and binary). Only the harness and the runner read the job folder itself: a sandbox's uid may
 * pass through it (0711) to reach box/, but not list or read it. A custom problem's harness runs sandboxed under
 * the job's uid, and its plan holds nothing secret (never ranked).
 */
function stageJobFolder(j: CAbiJob, sandbox: JobSandbox): void {
  chmodSync(sandbox.dir, 0o711);
  sandbox.share(sandbox.path('box'));
  if (j.job.problem.definition.custom && process.getuid?.() === 0)
    chownSync(sandbox.dir, sandbox.uid ?? NOBODY_UID, sandbox.uid ?? NOBODY_UID);
}

async function compile(j: CAbiJob, sandbox: JobSandbox): Promise<{ report: CompileReport } | Refusal> {
  stageJobFolder(j, sandbox);
  const { job } = j;
  const compiled = await compileCandidate({
    jobDir: sandbox.path('box'),
    language: job.payload.language,
    source: job.payload.source,
    toolchain: j.toolchain,
    workerObjects: stageWorkerObjects(j.built, sandbox.path('box')),
    uid: sandbox.uid,
    cgroup: sandbox.cgroup,
    ...(job.signal ? { signal: job.signal } : {}),
  });
  if (compiled.report.ok) return { report: compiled.report };
  const verdict = compiled.timedOut ? 'compile_timeout' : 'compile_error';
  const firstError = compiled.report.log.split('\n').find((l) => /error/i.test(l)) ?? '';
  return {
    refused: {
      ...job.base,
      verdict,
      message: `${verdict}: ${compiled.timedOut ? 'the compiler ran past 120 s' : firstError.trim().slice(0, 300) || 'the compiler failed'}`,
      compile: compiled.report,
      correctness: null,
      environment: j.environment,
      runner_seconds: job.elapsed(),
    },
  };
}

/** `ncu`: the untimed profiled run (ncuProfile): one test case, the first benchmark case, a few samples, the
    worker under ncu. */
function launch(j: CAbiJob, sandbox: JobSandbox, ncu?: HarnessOptions['workerPrefix']): Promise<HarnessRun> {
  const { job } = j;
  const problem = job.problem.definition;
  const cuda = j.kind === 'cuda';
  return runHarness({
    built: j.built,
    jobDir: sandbox.dir,
    boxDir: sandbox.path('box'),
    deviceId: job.device.id,
    cgroup: sandbox.cgroup,
    plan: planText({
      problem,
      ranked: job.ranked,
      cuda,
      testCases: ncu ? problem.cases.test.slice(0, 1) : problem.cases.test,
      benchCases: ncu ? j.benchCases.slice(0, 1) : j.benchCases,
      seeds: j.seeds,
      benchSeed: j.benchSeed,
      timing: ncu ? NCU_RUN_TIMING : job.timing,
      llcBytes: cuda ? 0 : deviceLlcBytes(job.device),
      ...(ncu ? { exitWaitMs: NCU_EXIT_WAIT_MS } : {}),
    }),
    dataBytes: j.dataBytes,
    maxTimingMs: ncu ? NCU_RUN_TIMING.maxMs : job.timing.maxMs,
    cuda,
    sandboxHarness: problem.custom,
    uid: sandbox.uid,
    ...(ncu ? { workerPrefix: ncu } : {}),
    ...(job.signal ? { signal: job.signal } : {}),
  });
}

async function parse(
  j: CAbiJob,
  run: HarnessRun,
  outcome: { compile: CompileReport | null; timedRuns: number },
): Promise<EvaluationState> {
  const { job } = j;
  const compile = outcome.compile as CompileReport;
  job.problem.onProfile?.({
    build_ms: j.buildMs,
    compile_ms: compile.duration_ms,
    harness_ms: run.wallMs,
    total_ms: performance.now() - job.started,
    harness: run.report?.profile ?? {},
  });
  const make = () =>
    stateFromReport({
      problem: job.problem.definition,
      device: job.device,
      ranked: job.ranked,
      run,
      timedRuns: outcome.timedRuns,
      compile,
      environment: j.environment,
      base: job.base,
      runnerSeconds: job.elapsed(),
    });
  // Above, or near, a cpu peak measured at start-up? The judge measures the peaks again (judge/peak.ts).
  return judgeWithPeakRecheck(job.device, job.signal, make, undefined, job.peakRecheckWaitMs);
}

/** The untimed Nsight Compute run of an accepted cuda candidate (profile/ncu-run.ts): only its counters are kept,
    or the reason there are none. */
async function ncuProfile(j: CAbiJob, sandbox: JobSandbox, state: EvaluationState): Promise<BuildFacts | null> {
  const facts = state.compile?.facts;
  // The harness drops every worker to the job's uid: the worker never runs as root.
  const cap = ncuCapability({ workerIsRoot: false });
  if (!cap.ok) return withCounters(facts, { available: false, reason: cap.reason });
  const prefix = ncuWorkerPrefix(cap.ncu, ncuKernelNames(facts));
  const run = await launch(j, sandbox, { argv: prefix, roBinds: cap.roots, tmpBytes: NCU_TMP_BYTES });
  return withCounters(facts, ncuCountersOf(run));
}

function cAbiBackend(kind: 'cpu' | 'cuda'): Backend<CAbiProblem, CAbiJob, HarnessRun> {
  return {
    prepare: (job) => prepare(job, kind),
    sandbox: (j) => {
      const p = j.job.problem.definition;
      return {
        folders: ['box'],
        limits: jobCgroupLimits(dataBytesOf(p, [...p.cases.test, ...p.cases.benchmark, ...p.cases.ranked])),
      };
    },
    compile,
    launch,
    timingFacts: (run) => (run.report ? { load: run.report.load, bench: run.report.bench } : null),
    parse,
    ...(kind === 'cuda' ? { profile: ncuProfile } : {}),
  };
}

/** C and C++ candidates on a cpu device. */
export const cBackend = cAbiBackend('cpu');
/** CUDA candidates on a GPU device (no seccomp filter for the worker, the GPU's device files in its sandbox). */
export const cudaBackend = cAbiBackend('cuda');

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
