// Runs the harness for one compiled candidate and returns its parsed report plus the candidate's output.
import { chmodSync, chownSync, closeSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxArgv, sandboxAvailable, type SandboxLimits } from '../../../sandbox/bwrap.js';
import type { JobCgroup } from '../../../sandbox/cgroup.js';
import { openTimingLock, TIMING_LOCK_WAIT_MS } from '../../../sandbox/timing-lock.js';
import { PROGRESS_FILE, PROGRESS_FOLDER } from '../../../evaluate/progress.js';
import { workerFilter } from '../../../sandbox/seccomp.js';
import { runCommand, type SpawnResult } from '../../../sandbox/spawn.js';
import type { BuiltHarness } from './build.js';
import { HarnessReportSchema, type HarnessReport } from '../report-json.js';

export interface HarnessRun {
  report?: HarnessReport;
  /** Why no report came back (the harness crashed or ran out of time). */
  failure?: string;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  wallMs: number;
}

export interface HarnessOptions {
  built: BuiltHarness;
  /** The job's private folder (plan, launch lines): the harness reads it, no worker sandbox mounts it. */
  jobDir: string;
  /** The job's `box` folder below jobDir, the only one a worker sandbox sees (at /w): the candidate's binary. */
  boxDir: string;
  /** The device whose host-wide timing lock the timed phase holds. */
  deviceId: string;
  cgroup?: JobCgroup | null;
  plan: string;
  /** Data bytes of the largest case (sets the address-space limit). */
  dataBytes: number;
  maxTimingMs: number;
  cuda: boolean;
  /** Custom problems: the reference is untrusted, so the harness itself runs in a sandbox too. */
  sandboxHarness: boolean;
  /** The job's sandbox uid when the runner is root (jobUid); the harness drops to it to start the worker. */
  uid?: number | undefined;
  signal?: AbortSignal;
  /** The candidate's worker started under a profiler inside its sandbox (profile/ncu-run.ts): what goes before its
      binary, host folders it needs read-only, and a larger private /tmp. Never for a timed run that is judged. */
  workerPrefix?: { argv: readonly string[]; roBinds: readonly string[]; tmpBytes: number } | undefined;
}

export async function runHarness(opts: HarnessOptions): Promise<HarnessRun> {
  const { jobDir } = opts;
  writePlan(opts);
  const limits = workerLimits(opts);
  const baseline = writeLaunchLines(opts, limits);
  // The host-wide timing lock of the device, handed to the harness as fd 5 (after the two output pipes).
  const lock = openTimingLock(opts.deviceId);
  const lockArg = lock === null ? [] : ['5'];
  const argv = harnessArgv(opts, limits, baseline, lockArg);
  // Whole-run wall limit: correctness, the timing budget, the wait for the timing lock, start-up; the
  // harness's own per-call deadlines fire first.
  const timeoutMs = opts.maxTimingMs + 90_000 + (lock === null ? 0 : TIMING_LOCK_WAIT_MS);
  const r = await runCommand(argv, {
    cwd: jobDir,
    timeoutMs,
    extraPipes: 2,
    ...(lock === null ? {} : { extraFds: [lock] }),
    cgroup: opts.cgroup ?? null,
    capBytes: 64 * 1024,
    stdoutCapBytes: 16 << 20,
    dropRoot: opts.sandboxHarness,
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
    env: {
      PATH: '/usr/bin:/bin',
      HOME: '/tmp',
      LC_ALL: 'C',
      OMP_WAIT_POLICY: 'passive',
      // Where the harness writes its progress (c/harness_progress.c): relative to its working folder, the job
      // folder (/w in a sandbox, which mounts the progress folder writable).
      KF_PROGRESS: `${PROGRESS_FOLDER}/${PROGRESS_FILE}`,
      // cuda: the harness's trusted probe (c/harness_probe.c); not for a sandboxed harness, whose folder lacks it.
      ...(opts.cuda && opts.built.probe && !opts.sandboxHarness ? { KF_PROBE: opts.built.probe } : {}),
      // The trusted harness dies with this process (prctl PR_SET_PDEATHSIG, c/harness_main.c): a runner killed
      // mid-evaluation leaves no harness holding the timing lock. A sandboxed one has bwrap's --die-with-parent.
      ...(opts.sandboxHarness ? {} : { KF_PARENT_PID: String(process.pid) }),
    },
    ...(opts.signal ? { signal: opts.signal } : {}),
  }).finally(() => {
    if (lock !== null) closeSync(lock);
  });
  return harnessRunOf(r, timeoutMs);
}

/**
 * The plan holds the seeds and, in ranked mode, the hidden sizes: it stays in the job folder, which no worker
 * sandbox mounts (a worker sees only box/), and is readable by the harness alone.
 */
function writePlan(opts: HarnessOptions): void {
  writeFileSync(join(opts.jobDir, 'plan.txt'), opts.plan, { mode: 0o600 });
  // A sandboxed harness (custom problems) runs under the job's uid and must read it.
  if (opts.sandboxHarness && process.getuid?.() === 0)
    chownSync(join(opts.jobDir, 'plan.txt'), opts.uid ?? 65534, opts.uid ?? 65534);
}

function workerLimits(opts: HarnessOptions): SandboxLimits {
  const cores = 2;
  return {
    cpuSeconds: Math.ceil((opts.maxTimingMs / 1000 + 120) * cores),
    processes: process.getuid?.() === 0 ? 64 : 512,
    fileSize: 64 << 20,
    openFiles: 64,
    ...(opts.cuda ? {} : { addressSpace: 4 * 2 ** 30 + 3 * opts.dataBytes }),
  };
}

/**
 * How the harness starts the candidate's worker (launch.args) and the baseline's (baseline.args), each a sandbox
 * of box/; returns the baseline's file name for the harness's argv (`-`: none).
 */
function writeLaunchLines(opts: HarnessOptions, limits: SandboxLimits): string {
  const { jobDir } = opts;
  // Paths as the harness sees them: the job dir is /w inside an outer sandbox.
  const boxPath = opts.sandboxHarness ? '/w/box' : opts.boxDir;
  // cpu workers: the seccomp filter (one process, no exotic syscalls); the harness opens seccomp.bpf as fd 6
  // for bwrap. Not for cuda: the driver's behaviour under the filter is unverified here (no GPU).
  const filter = opts.cuda || !sandboxAvailable() ? null : workerFilter();
  if (filter) writeFileSync(join(jobDir, 'seccomp.bpf'), filter);
  const workerArgv = (binary: string, prefix?: HarnessOptions['workerPrefix']) =>
    sandboxArgv(
      {
        workDir: boxPath,
        writable: false,
        limits,
        gpu: opts.cuda,
        asPid1: true,
        ...(filter ? { seccompFd: 6 } : {}),
        ...(prefix ? { roBinds: prefix.roBinds, tmpBytes: prefix.tmpBytes } : {}),
      },
      [...(prefix?.argv ?? []), binary],
    );
  writeFileSync(join(jobDir, 'launch.args'), `${workerArgv('./worker', opts.workerPrefix).join('\0')}\0`);
  if (!opts.built.baselineWorker) return '-';
  copyFileSync(opts.built.baselineWorker, join(opts.boxDir, 'baseline_worker'));
  chmodSync(join(opts.boxDir, 'baseline_worker'), 0o755);
  writeFileSync(join(jobDir, 'baseline.args'), `${workerArgv('./baseline_worker').join('\0')}\0`);
  return 'baseline.args';
}

/** The harness's command: the trusted binary itself, or (custom problems) the same in a sandbox of the job folder. */
function harnessArgv(opts: HarnessOptions, limits: SandboxLimits, baseline: string, lockArg: string[]): string[] {
  // uid: the one the harness drops to before starting a worker when it runs as root (0: stay).
  if (!opts.sandboxHarness)
    return [opts.built.harness, 'plan.txt', 'launch.args', baseline, String(opts.uid ?? 65534), ...lockArg];
  copyFileSync(opts.built.harness, join(opts.jobDir, 'harness'));
  chmodSync(join(opts.jobDir, 'harness'), 0o755);
  return sandboxArgv(
    {
      workDir: opts.jobDir,
      writable: false,
      writableFolders: [PROGRESS_FOLDER],
      limits: {
        ...limits,
        processes: limits.processes + 16,
        addressSpace: 8 * 2 ** 30 + 6 * opts.dataBytes,
        // The harness sizes the shared data file (a memfd) itself, and RLIMIT_FSIZE covers that too.
        fileSize: limits.fileSize + 2 * opts.dataBytes,
      },
      // The untrusted reference runs in the harness: it must not be able to keep the sandbox alive either.
      asPid1: true,
    },
    ['./harness', 'plan.txt', 'launch.args', baseline, '0', ...lockArg],
  );
}

/** The harness's exit as a run: its parsed report, or why there is none. */
function harnessRunOf(r: SpawnResult, timeoutMs: number): HarnessRun {
  const run: HarnessRun = {
    timedOut: r.timedOut,
    stdout: r.extra[0] ?? '',
    stderr: r.extra[1] ?? '',
    wallMs: r.durationMs,
  };
  if (r.timedOut) return { ...run, failure: `the evaluation ran past its ${Math.round(timeoutMs / 1000)} s limit` };
  if (r.aborted) return { ...run, failure: 'the evaluation was aborted' };
  try {
    const parsed = HarnessReportSchema.safeParse(JSON.parse(r.stdout));
    if (parsed.success) return { ...run, report: parsed.data };
    return { ...run, failure: `the harness's report did not parse: ${parsed.error.message.slice(0, 500)}` };
  } catch {
    return {
      ...run,
      failure: `the harness exited (${r.code ?? r.signal}) without a report: ${r.stderr.slice(0, 2000)}`,
    };
  }
}
