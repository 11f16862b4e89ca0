// The torch backend: evaluates a `ModelNew` file against a KernelBench-format problem. The same rules as the C
// backend (docs/evaluation.md): the candidate is imported only inside a bwrap sandbox, as its pid 1, in its own
// process, seeing only its box; the trusted harness (py/kforge_torch/harness.py, another process) makes the inputs,
// computes the reference outputs, shares tensors through memfds it owns, checks and times from outside.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import type {
  CompileReport,
  Device,
  EvaluationEnvironment,
  EvaluationJobPayload,
  EvaluationState,
  TorchJobProblem,
  Verdict,
} from '@kernelforge/sdk';
import type { TimingRules } from '../../harness/plan.js';
import type { ProblemDefinition } from '../../problems/schema.js';
import { entryArgs, stagePackage, WORKER_MODULES } from './py-package.js';
import { sandboxArgv, sandboxAvailable, sandboxName, type SandboxLimits } from '../../sandbox/bwrap.js';
import { type JobSandbox, jobCgroupLimits } from '../../sandbox/job-sandbox.js';
import { workerFilter } from '../../sandbox/seccomp.js';
import { type SpawnResult, runCommand } from '../../sandbox/spawn.js';
import { openTimingLock } from '../../sandbox/timing-lock.js';
import { gatherTorchFacts, inbandBuildFacts, torchFactsTimeoutMs } from './profile-facts.js';
import { PROGRESS_FILE, PROGRESS_FOLDER } from '../../evaluate/progress.js';
import type { Backend, EvaluationJob, Refusal } from '../../evaluate/backend.js';
import { planRules } from '../../evaluate/judge.js';
import { judgeFailure, verdictOf } from '../../evaluate/judge/facts.js';
import { judgeWithPeakRecheck } from '../../evaluate/judge/peak.js';
import { pythonReviewReasons } from './python-scan.js';
import { seedsFor } from '../../evaluate/seeds.js';
import { parseTorchReport, stateFromTorchReport, type TorchReport } from './report.js';
import { type TorchToolchain, torchCudaUnavailable, torchToolchain } from './toolchain.js';

export { type TorchToolchain, torchCudaUnavailable, torchToolchain, torchToolchainQuick } from './toolchain.js';

/** The seed torch.manual_seed gets before a model is built: public, the same for every run. */
export const PUBLIC_CTOR_SEED = 42;

/** CPU the candidate's worker PROCESS may use between a reply and the moment it is quiet again (its thread going back
    to read the next command, its pools parking); more flags the call as work left running after forward() returned.
    Read from outside on the process's cpu clock, which counts ended threads too (issue 31). Measured on the 2-core VM
    under a load average of 12: honest calls 0.01-0.03 ms typical, 0.13 ms at most over 900 calls (HardSigmoid, a
    matmul, a tiny elementwise op). Before issue 31 it was 10 ms of per-thread cpu, which hid a tick of lag. */
export const AFTER_REPLY_CPU_MS = 0.5;

/** The candidate's limits the torch harness applies (py/kforge_torch/plan.py; docs/evaluation.md, "Time limits"):
    cpu between a quiet moment and the next command (the C harness's 0.1 ms), and the wall time of its calls and
    model builds: a call the larger of `call_floor_s` and `ref_multiple` x the reference's time on its case, a build
    the larger of `init_floor_s` and that multiple of the reference's build and two calls, all of them the larger of
    `total_floor_s` and that multiple of the reference's time for the same work. */
export const TORCH_CANDIDATE_LIMITS = {
  between_calls_cpu_ms: 0.1,
  call_floor_s: 1,
  init_floor_s: 10,
  total_floor_s: 20,
  ref_multiple: 50,
} as const;

/** The C backend's compile limit; KFORGE_TORCH_COMPILE_TIMEOUT_S raises it on slow machines (torch's headers
    make a first load_inline build take 35 s on an idle 2-core VM). */
const COMPILE_TIMEOUT_MS = (Number(process.env.KFORGE_TORCH_COMPILE_TIMEOUT_S) || 120) * 1000;

/** Whether the candidate builds C++ (load_inline / load): it then gets a compile step with a writable box. */
const BUILDS_EXTENSIONS = /cpp_extension|load_inline/;

/** The data a case may hold (the budget pytorch problems' sizes are scaled to): sets memory and file limits. */
const DATA_BYTES = 256 << 20;

/** The pytorch problem a job runs: from its payload (a remote runner may not have the folders) or the catalogue. */
export function torchJobProblem(
  payload: EvaluationJobPayload,
  def: ProblemDefinition | undefined,
  device: Device,
): TorchJobProblem | null {
  if (payload.torch_problem) return payload.torch_problem;
  if (def?.kind !== 'pytorch' || !def.torch) return null;
  const sizes = def.torch.info.sizes[device.kind] ?? def.torch.info.sizes.cpu;
  if (!sizes) return null;
  const pick = (cs: typeof sizes.test) => cs.map((c) => ({ name: c.name, constants: { ...c.constants } }));
  return {
    source: def.torch.source,
    file_name: def.torch.file_name,
    cases: { test: pick(sizes.test), benchmark: pick(sizes.benchmark) },
    tolerance: { ...def.tolerance },
  };
}

/** What a pytorch job needs beside the common ones. */
export interface TorchProblem {
  definition: TorchJobProblem;
  /** Time the reference compiled too (default true): TorchScript freeze on a cpu, torch.compile on cuda. */
  compiledBaseline: boolean;
  /** On a cpu device: the staged protocol of the cuda path (tests of its logic without a GPU). */
  staged?: boolean;
  /** cuda: the device's compute capability ("9.0"): load_inline builds for it alone. */
  computeCapability?: string | undefined;
  /** The torch facts' extra, untimed profiled run of an accepted candidate (default true). */
  facts?: boolean | undefined;
  /** Lower floors for the candidate's limits (tests: EvaluateOptions.torchLimitFloors); default TORCH_CANDIDATE_LIMITS'. */
  limitFloors?:
    | { call_floor_s?: number; init_floor_s?: number; total_floor_s?: number; import_floor_s?: number }
    | undefined;
}

/** The L2 flush before every timed call on a GPU (the C cuda worker's 256 MiB memset: several times any L2). */
export const CUDA_FLUSH_BYTES = 256 << 20;

/** The cuda path's cpu rules for work after return (the C cuda worker's, docs/evaluation.md): the CUDA runtime's
    own threads use some cpu around a call. */
export const CUDA_AFTER_REPLY_CPU_MS = 1;
export const CUDA_BETWEEN_CALLS_CPU_MS = 1;

/** A pytorch job once prepared: its toolchain, seeds, threads and the sandbox limits of its processes. */
interface TorchJob {
  job: EvaluationJob<TorchProblem>;
  toolchain: TorchToolchain;
  environment: EvaluationEnvironment;
  /** The sizes of the first benchmark case (a state's sizes_used). */
  benchConstants: Record<string, number>;
  /** A cuda device: the model, inputs and outputs live on the GPU, timed by the staged protocol. */
  isCuda: boolean;
  /** The staged protocol (cuda, or asked for on the cpu). */
  staged: boolean;
  threads: number;
  /** The candidate workers' seccomp filter (cpu, with bwrap), written to the job folder for the harness. */
  filter: Buffer | null;
  /** Whether this host has a timing lock for the device (opened again for each timed run). */
  hasLock: boolean;
  /** The torch facts the candidate's worker gave after the last timed run (a cpu device; `parse` keeps them from the
      report), or why none; unset when that run gathered none (then `profile` makes its own run). */
  inbandFacts?: { line: string } | { error: string } | undefined;
}

/** Whether the harness asks the candidate's worker for its torch facts after the timed phase (a cpu device, facts
    wanted): one profiled call in the process that already holds the model, instead of a run of profile.py that
    starts Python, torch and the model again. On cuda the extra run stays: CUPTI in a process that timed with events
    is not measured here (no GPU). */
const inbandFacts = (j: Pick<TorchJob, 'job' | 'isCuda'>) => !j.isCuda && j.job.problem.facts !== false;

/** A state of a job that ended before its harness gave a report. */
function failed(
  j: Pick<TorchJob, 'job' | 'environment' | 'benchConstants'>,
  verdict: Verdict,
  message: string,
  compile: CompileReport | null = null,
): EvaluationState {
  return {
    ...j.job.base,
    verdict,
    message,
    compile,
    correctness: null,
    environment: j.environment,
    runner_seconds: j.job.elapsed(),
    sizes_used: j.benchConstants,
  };
}

function refusal(
  j: Pick<TorchJob, 'job' | 'environment' | 'benchConstants'>,
  toolchain: TorchToolchain,
): Refusal | null {
  const { payload, device } = j.job;
  if (payload.language !== 'pytorch')
    return {
      refused: failed(
        j,
        'compile_error',
        `compile_error: ${payload.language} sources cannot solve a pytorch problem (use pytorch)`,
      ),
    };
  const why = device.kind === 'cuda' ? torchCudaUnavailable(toolchain.versions) : null;
  if (device.kind !== 'cpu' && device.kind !== 'cuda')
    return { refused: failed(j, 'compile_error', `compile_error: pytorch problems do not run on ${device.id}`) };
  if (why)
    return {
      refused: failed(j, 'compile_error', `compile_error: pytorch problems cannot run on ${device.id} here: ${why}`),
    };
  return null;
}

async function prepare(job: EvaluationJob<TorchProblem>): Promise<TorchJob | Refusal> {
  const toolchain = torchToolchain(job.settings.python);
  const environment = {
    device_id: job.device.id,
    device_name: job.device.name,
    compiler: `python ${toolchain.versions.python ?? '?'} + torch ${toolchain.versions.torch ?? '?'}`,
    compiler_version: toolchain.versions.cxx ?? '',
    flags: [] as string[],
    sandbox: sandboxName(job.settings.jobCgroup),
    runner: hostname(),
    toolchains: toolchain.versions,
  };
  const benchConstants = job.problem.definition.cases.benchmark[0]?.constants ?? {};
  const refused = refusal({ job, environment, benchConstants }, toolchain);
  if (refused) return refused;
  const isCuda = (job.device.kind as Device['kind']) === 'cuda';
  return {
    job,
    toolchain,
    environment,
    benchConstants,
    isCuda,
    staged: isCuda || job.problem.staged === true,
    threads: Math.max(1, job.device.cores ?? availableParallelism()),
    filter: isCuda || !sandboxAvailable() ? null : workerFilter(),
    hasLock: hasTimingLock(job.device.id),
  };
}

function hasTimingLock(deviceId: string): boolean {
  const fd = openTimingLock(deviceId);
  if (fd === null) return false;
  closeSync(fd);
  return true;
}

/** The harness's files in the job folder; the candidate's in box/, the reference's (for its workers) in refbox/. */
function stageFiles(j: TorchJob, sandbox: JobSandbox): void {
  stagePackage(sandbox.dir);
  stagePackage(sandbox.path('box'), WORKER_MODULES);
  stagePackage(sandbox.path('refbox'), WORKER_MODULES);
  writeFileSync(sandbox.path('box', 'candidate.py'), j.job.payload.source);
  writeFileSync(sandbox.path('refbox', 'reference.py'), j.job.problem.definition.source);
  writeFileSync(sandbox.path('reference.py'), j.job.problem.definition.source);
}

async function compile(j: TorchJob, sandbox: JobSandbox): Promise<{ report: CompileReport | null } | Refusal> {
  stageFiles(j, sandbox);
  let report: CompileReport | null = null;
  if (BUILDS_EXTENSIONS.test(j.job.payload.source)) {
    const built = await buildExtensions(j, sandbox);
    if ('refused' in built) return built;
    report = built.report;
  }
  stageHarness(j, sandbox);
  return { report };
}

/**
 * The compile step (only for candidates that build C++): import it once in a sandbox whose box is writable and
 * where fork works (g++), torch's headers visible read-only under /usr; built extensions are cached by the
 * candidate's content and served to the run from box/ext (read-only then).
 */
async function buildExtensions(j: TorchJob, sandbox: JobSandbox): Promise<{ report: CompileReport } | Refusal> {
  const { workDir, payload } = j.job;
  const key = createHash('sha256')
    .update(`${j.toolchain.versions.torch}\0${j.toolchain.versions.cxx}\0${payload.source}`)
    .digest('hex');
  const cached = join(workDir, 'cache', 'torch-ext', key);
  const t0 = performance.now();
  if (existsSync(join(cached, 'manifest.json'))) {
    cpSync(cached, sandbox.path('box', 'ext'), { recursive: true });
    return {
      report: {
        ok: true,
        compiler: 'load_inline (cached)',
        flags: [],
        log: '',
        duration_ms: performance.now() - t0,
      },
    };
  }
  const r = await importOnce(j, sandbox);
  const report = {
    ok: r.code === 0 && !r.timedOut,
    compiler: `load_inline (${j.toolchain.versions.cxx ?? 'c++'})`,
    flags: [],
    log: `${r.stdout}${r.stderr}`.slice(-64 * 1024),
    duration_ms: r.durationMs,
  };
  if (r.timedOut)
    return {
      refused: failed(
        j,
        'compile_timeout',
        `compile_timeout: importing the candidate ran past ${COMPILE_TIMEOUT_MS / 1000} s`,
        report,
      ),
    };
  if (!report.ok) {
    const last = report.log.trim().split('\n').filter(Boolean).pop() ?? 'the import failed';
    return { refused: failed(j, 'compile_error', `compile_error: ${last.slice(0, 300)}`, report) };
  }
  try {
    mkdirSync(join(workDir, 'cache', 'torch-ext'), { recursive: true });
    cpSync(sandbox.path('box', 'ext'), cached, { recursive: true });
  } catch {
    /* the cache is an optimisation */
  }
  return { report };
}

/** Where nvcc lives for load_inline's CUDA sources (torch finds it through CUDA_HOME). */
const CUDA_HOME = process.env.CUDA_HOME ?? '/usr/local/cuda';
const CUDA_BIN = `${CUDA_HOME}/bin`;

/** The compile step's environment on a cuda device: nvcc through CUDA_HOME, built for this device's
    architecture only (TORCH_CUDA_ARCH_LIST, from its compute capability), so a build is one pass. */
function cudaBuildEnv(j: TorchJob): Record<string, string> {
  const cc = j.job.problem.computeCapability;
  return { CUDA_HOME, ...(cc ? { TORCH_CUDA_ARCH_LIST: cc } : {}) };
}

/** PATH in the torch backend's sandboxes: `first`, the toolchain's own folders (ninja's), then /usr/bin and /bin. */
export function sandboxPath(j: { toolchain: TorchToolchain }, first: readonly string[] = []): string {
  return [...first, ...(j.toolchain.binDirs ?? []), '/usr/bin', '/bin'].join(':');
}

/** Imports the candidate in a writable box (load_inline builds its extensions into box/ext). */
function importOnce(j: TorchJob, sandbox: JobSandbox): Promise<SpawnResult> {
  const boxDir = sandbox.path('box');
  chmodSync(sandbox.dir, 0o777);
  sandbox.share(boxDir);
  return runCommand(
    sandboxArgv(
      {
        workDir: boxDir,
        writable: true,
        ...(j.toolchain.roots ? { roBinds: j.toolchain.roots } : {}),
        tmpBytes: 512 << 20,
        limits: { cpuSeconds: 300, processes: 256, fileSize: 1 << 30, openFiles: 256 },
      },
      [j.job.settings.python, '-I', '-B', ...entryArgs('worker'), '--mode', 'compile-only', '--threads', '1'],
    ),
    {
      cwd: boxDir,
      timeoutMs: COMPILE_TIMEOUT_MS,
      dropRoot: true,
      ...(sandbox.uid !== undefined ? { uid: sandbox.uid } : {}),
      cgroup: sandbox.cgroup,
      env: {
        PATH: sandboxPath(j, j.isCuda ? [CUDA_BIN] : []),
        HOME: '/tmp',
        LC_ALL: 'C.UTF-8',
        TMPDIR: '/tmp',
        MAX_JOBS: '2',
        ...(j.isCuda ? cudaBuildEnv(j) : {}),
      },
      ...(j.job.signal ? { signal: j.job.signal } : {}),
    },
  );
}

function timingOf(t: TimingRules) {
  return {
    warmup_calls: Math.max(1, t.warmupCalls),
    min_samples: t.minSamples,
    min_ms: t.minMs,
    max_ms: t.maxMs,
    rel_se: t.targetRse,
    // 0: no rule on the speedup's interval (quick).
    speedup_half_width: t.targetSpeedupHalfWidth ?? 0,
    // 0: no pair is taken again for having waited for a cpu (quick).
    retake_wait_share: t.retakeWaitShare ?? 0,
    call_timeout_s: t.callTimeoutMs / 1000,
  };
}

/** How a worker sandbox is started (the harness starts each with the seccomp filter as fd 10, its socket as 11). */
function workerArgv(j: TorchJob, box: string, module: string, cls: string, mode: string): string[] {
  const device = j.isCuda ? ['--device', 'cuda', '--flush-bytes', String(CUDA_FLUSH_BYTES)] : [];
  const limits: SandboxLimits = {
    cpuSeconds: Math.ceil((j.job.timing.maxMs / 1000 + 300) * j.threads),
    processes: process.getuid?.() === 0 ? 128 : 512,
    fileSize: 64 << 20,
    openFiles: 128,
    ...(j.isCuda ? {} : { addressSpace: 8 * 2 ** 30 + 3 * DATA_BYTES }),
  };
  return sandboxArgv(
    {
      workDir: box,
      writable: false,
      ...(j.toolchain.roots ? { roBinds: j.toolchain.roots } : {}),
      limits,
      gpu: j.isCuda,
      asPid1: true,
      // Triton's and Inductor's caches (cudaRunEnv) live in the private /tmp.
      ...(j.isCuda ? { tmpBytes: 512 << 20 } : {}),
      ...(j.filter ? { seccompFd: 10 } : {}),
    },
    [
      j.job.settings.python,
      '-I',
      '-B',
      // Unbuffered: the worker is killed at the end, and its prints must reach the report.
      '-u',
      ...entryArgs('worker'),
      '--sock',
      '11',
      '--module',
      module,
      '--cls',
      cls,
      '--mode',
      mode,
      '--threads',
      String(j.threads),
      ...device,
      ...(j.staged && !j.isCuda ? ['--staged'] : []),
    ],
  );
}

/** The harness's plan: cases, seeds, rules, and how to start the candidate's, the baseline's and the compiled
    baseline's workers. */
function planOf(j: TorchJob) {
  const { payload, problem, ranked } = j.job;
  const { seeds, benchSeed } = seedsFor(payload.mode, payload.secret_seed, payload.target_id);
  const small = (b: bigint) => Number(b & 0xffffffffffffn);
  return {
    source_path: '/w/reference.py',
    file_name: problem.definition.file_name,
    cases: problem.definition.cases,
    seeds: seeds.map(small),
    bench_seed: small(benchSeed),
    // A public constant: the candidate's constructor runs after torch.manual_seed(ctor_seed), so nothing it can
    // read there may be derived from a secret seed. The parameters are copied from the reference anyway.
    ctor_seed: PUBLIC_CTOR_SEED,
    rules: planRules(),
    ranked,
    tolerance: problem.definition.tolerance ?? { atol: 1e-4, rtol: 1e-4 },
    threads: j.threads,
    timing: timingOf(j.job.timing),
    after_reply_cpu_ms: j.isCuda ? CUDA_AFTER_REPLY_CPU_MS : AFTER_REPLY_CPU_MS,
    limits: {
      ...TORCH_CANDIDATE_LIMITS,
      ...(j.isCuda ? { between_calls_cpu_ms: CUDA_BETWEEN_CALLS_CPU_MS } : {}),
      ...problem.limitFloors,
    },
    device: j.isCuda ? 'cuda' : 'cpu',
    staged: j.staged,
    seccomp: j.filter ? '/w/seccomp.bpf' : null,
    facts: inbandFacts(j),
    facts_timeout_s: torchFactsTimeoutMs() / 1000,
    lock_fd: j.hasLock ? 5 : null,
    // The harness's progress file (progress.ts), in the one folder its sandbox may write.
    progress_path: `/w/${PROGRESS_FOLDER}/${PROGRESS_FILE}`,
    launch: {
      candidate: workerArgv(j, '/w/box', '/w/candidate.py', 'ModelNew', 'eager'),
      baseline: workerArgv(j, '/w/refbox', '/w/reference.py', 'Model', 'eager'),
      ...(problem.compiledBaseline
        ? { compiled: workerArgv(j, '/w/refbox', '/w/reference.py', 'Model', j.isCuda ? 'compile' : 'freeze') }
        : {}),
    },
  };
}

/**
 * The plan (seeds) and the reference stay in the job folder: the harness's sandbox mounts it, no worker does (a
 * worker sees only box/ or refbox/). Then the job folder is the job's uid's alone.
 */
function stageHarness(j: TorchJob, sandbox: JobSandbox): void {
  if (j.filter) writeFileSync(sandbox.path('seccomp.bpf'), j.filter);
  writeFileSync(sandbox.path('plan.json'), JSON.stringify(planOf(j)), { mode: 0o600 });
  for (const p of [sandbox.dir, sandbox.path('box'), sandbox.path('refbox')]) chmodSync(p, 0o700);
  const uid = sandbox.uid;
  if (process.getuid?.() === 0 && uid !== undefined) execFileSync('chown', ['-R', `${uid}:${uid}`, sandbox.dir]);
}

/** One harness run and its report (null: none came back). */
interface TorchRun {
  r: SpawnResult;
  report: TorchReport | null;
  timeoutMs: number;
}

function harnessArgv(j: TorchJob, sandbox: JobSandbox): string[] {
  const limits: SandboxLimits = {
    cpuSeconds: Math.ceil((j.job.timing.maxMs / 1000 + 600) * j.threads),
    processes: process.getuid?.() === 0 ? 256 : 512,
    // The harness sizes each worker's shared memory file (a memfd) itself, and RLIMIT_FSIZE covers that too.
    fileSize: (64 << 20) + 2 * DATA_BYTES,
    openFiles: 256,
    ...(j.isCuda ? {} : { addressSpace: 24 * 2 ** 30 + 8 * DATA_BYTES }),
  };
  return sandboxArgv(
    {
      workDir: sandbox.dir,
      writable: false,
      writableFolders: [PROGRESS_FOLDER],
      limits,
      asPid1: true,
      gpu: j.isCuda,
      ...(j.toolchain.roots ? { roBinds: j.toolchain.roots } : {}),
    },
    [j.job.settings.python, '-E', '-s', '-B', ...entryArgs('harness'), '/w/plan.json'],
  );
}

/** The run's environment on a cuda device (every worker inherits it from the harness): Triton's and Inductor's
    caches in the sandbox's private /tmp (the box is read-only), Inductor compiling in-process (no pool of
    processes left running between calls), ptxas and the C compiler Triton's launcher needs on PATH. */
function cudaRunEnv(): Record<string, string> {
  return {
    PATH: `${CUDA_BIN}:/usr/bin:/bin`,
    CUDA_HOME,
    TRITON_CACHE_DIR: '/tmp/triton',
    TORCHINDUCTOR_CACHE_DIR: '/tmp/inductor',
    TORCHINDUCTOR_COMPILE_THREADS: '1',
    // cuBLAS picks the same reduction order every call (its documented setting for deterministic results): the
    // harness calls the candidate twice on the same inputs and rejects different bits as nondeterministic.
    CUBLAS_WORKSPACE_CONFIG: ':4096:8',
  };
}

async function launch(j: TorchJob, sandbox: JobSandbox): Promise<TorchRun> {
  // The facts (inbandFacts) come after the timed phase, bounded on their own: a worker that hangs there is killed
  // by the harness before this limit, and the verdict stands.
  const timeoutMs = 2 * j.job.timing.maxMs + 300_000 + (inbandFacts(j) ? torchFactsTimeoutMs() : 0);
  const lock = j.hasLock ? openTimingLock(j.job.device.id) : null;
  const r = await runCommand(harnessArgv(j, sandbox), {
    cwd: sandbox.dir,
    timeoutMs,
    extraPipes: 2,
    ...(lock === null ? {} : { extraFds: [lock] }),
    cgroup: sandbox.cgroup,
    capBytes: 64 * 1024,
    stdoutCapBytes: 16 << 20,
    dropRoot: true,
    ...(sandbox.uid !== undefined ? { uid: sandbox.uid } : {}),
    // Thread pools told to sleep at once when idle (OpenMP, OpenBLAS): their spinning after a call would look
    // like work left running.
    env: {
      PATH: '/usr/bin:/bin',
      HOME: '/tmp',
      LC_ALL: 'C.UTF-8',
      OMP_WAIT_POLICY: 'passive',
      GOMP_SPINCOUNT: '0',
      OPENBLAS_THREAD_TIMEOUT: '4',
      ...(j.isCuda ? cudaRunEnv() : {}),
    },
    ...(j.job.signal ? { signal: j.job.signal } : {}),
  }).finally(() => {
    if (lock !== null) closeSync(lock);
  });
  return { r, report: r.timedOut ? null : parseTorchReport(r.stdout), timeoutMs };
}

async function parse(
  j: TorchJob,
  run: TorchRun,
  outcome: { compile: CompileReport | null; timedRuns: number },
): Promise<EvaluationState> {
  const { r, report } = run;
  const { job } = j;
  const output = job.ranked ? {} : { stdout: r.extra[0] ?? '', stderr: r.extra[1] ?? '' };
  // The driver's facts (judge/facts.ts): the harness ran past its limit, or ended without a report.
  if (r.timedOut) {
    const verdict = verdictOf('harness_timeout');
    return {
      ...failed(
        j,
        verdict,
        `${verdict}: the evaluation ran past its ${Math.round(run.timeoutMs / 1000)} s limit`,
        outcome.compile,
      ),
      ...output,
    };
  }
  if (!report) {
    const verdict = verdictOf('no_report');
    return {
      ...failed(
        j,
        verdict,
        `${verdict}: the harness exited (${r.code ?? r.signal}) without a report: ${r.stderr.slice(-800)}`,
        outcome.compile,
      ),
      ...output,
    };
  }
  j.inbandFacts =
    report.facts !== undefined
      ? { line: report.facts }
      : report.facts_error !== undefined
        ? { error: report.facts_error }
        : undefined;
  // On a cpu, a result above (or near) the measured peaks gets them measured again, as the C backend's (judge/peak.ts).
  return judgeWithPeakRecheck(
    job.device,
    job.signal,
    () =>
      stateFromTorchReport(report, {
        base: job.base,
        compile: outcome.compile,
        environment: j.environment,
        ranked: job.ranked,
        elapsed: job.elapsed,
        output,
        benchConstants: j.benchConstants,
        device: job.device,
        timedRuns: outcome.timedRuns,
        reviewReasons: pythonReviewReasons(job.payload.source),
        compiledName: j.isCuda ? 'torch.compile' : 'TorchScript freeze',
      }),
    undefined,
    job.peakRecheckWaitMs,
  );
}

/** PyTorch candidates (`ModelNew`) on a cpu or a cuda device. */
export const torchBackend: Backend<TorchProblem, TorchJob, TorchRun> = {
  prepare,
  // On a GPU each of the job's four processes (harness, candidate, two baselines) maps CUDA PyTorch's libraries and
  // a context: 2 GiB of host memory each beyond the cpu budget.
  sandbox: (j) => {
    const limits = jobCgroupLimits(DATA_BYTES);
    return {
      folders: ['box', 'refbox'],
      limits: j.isCuda
        ? { ...limits, memoryBytes: Math.min(Math.floor(totalmem() * 0.75), limits.memoryBytes + 8 * 2 ** 30) }
        : limits,
    };
  },
  compile,
  launch,
  timingFacts: (run) =>
    run.report && !judgeFailure(run.report) ? { load: run.report.load, bench: run.report.bench } : null,
  parse,
  profile: (j, sandbox) =>
    j.job.problem.facts === false
      ? Promise.resolve(null)
      : j.inbandFacts
        ? Promise.resolve(inbandBuildFacts(j.inbandFacts))
        : gatherTorchFacts({
            sandbox,
            python: j.job.settings.python,
            roots: j.toolchain.roots,
            device: j.isCuda ? 'cuda' : 'cpu',
            threads: j.threads,
            referenceSource: j.job.problem.definition.source,
            fileName: j.job.problem.definition.file_name,
            constants: j.benchConstants,
            ctorSeed: PUBLIC_CTOR_SEED,
            seccompPath: j.filter ? sandbox.path('seccomp.bpf') : null,
            env: {
              PATH: '/usr/bin:/bin',
              HOME: '/tmp',
              LC_ALL: 'C.UTF-8',
              OMP_WAIT_POLICY: 'passive',
              ...(j.isCuda ? cudaRunEnv() : {}),
            },
            signal: j.job.signal,
          }),
};
