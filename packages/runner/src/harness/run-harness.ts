// Runs the harness for one compiled candidate and returns its parsed report plus the candidate's output.
import { chmodSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxArgv, sandboxAvailable, type SandboxLimits } from '../sandbox/bwrap.js';
import { workerFilter } from '../sandbox/seccomp.js';
import { runCommand } from '../sandbox/spawn.js';
import type { BuiltHarness } from './build.js';
import { HarnessReportSchema, type HarnessReport } from './report-json.js';

export interface HarnessRun {
  report?: HarnessReport;
  /** Why no report came back (the harness crashed or ran out of time). */
  failure?: string;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  wallMs: number;
}

export async function runHarness(opts: {
  built: BuiltHarness;
  jobDir: string;
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
}): Promise<HarnessRun> {
  const { jobDir } = opts;
  writeFileSync(join(jobDir, 'plan.txt'), opts.plan);
  const cores = 2;
  const limits: SandboxLimits = {
    cpuSeconds: Math.ceil((opts.maxTimingMs / 1000 + 120) * cores),
    processes: process.getuid?.() === 0 ? 64 : 512,
    fileSize: 64 << 20,
    openFiles: 64,
    ...(opts.cuda ? {} : { addressSpace: 4 * 2 ** 30 + 3 * opts.dataBytes }),
  };
  // Paths as the harness sees them: the job dir is /w inside an outer sandbox.
  const jobPath = opts.sandboxHarness ? '/w' : jobDir;
  // cpu workers: the seccomp filter (one process, no exotic syscalls); the harness opens seccomp.bpf as fd 6
  // for bwrap. Not for cuda: the driver's behaviour under the filter is unverified here (no GPU).
  const filter = opts.cuda || !sandboxAvailable() ? null : workerFilter();
  if (filter) writeFileSync(join(jobDir, 'seccomp.bpf'), filter);
  const launch = sandboxArgv(
    { workDir: jobPath, writable: false, limits, gpu: opts.cuda, ...(filter ? { seccompFd: 6 } : {}) },
    ['./worker'],
  );
  writeFileSync(join(jobDir, 'launch.args'), `${launch.join('\0')}\0`);
  let baseline = '-';
  if (opts.built.baselineWorker) {
    copyFileSync(opts.built.baselineWorker, join(jobDir, 'baseline_worker'));
    chmodSync(join(jobDir, 'baseline_worker'), 0o755);
    const bl = sandboxArgv({ workDir: jobPath, writable: false, limits, gpu: true }, ['./baseline_worker']);
    writeFileSync(join(jobDir, 'baseline.args'), `${bl.join('\0')}\0`);
    baseline = 'baseline.args';
  }
  // The last argument: the uid the harness drops to before starting a worker when it runs as root (0: stay).
  let argv = [opts.built.harness, 'plan.txt', 'launch.args', baseline, String(opts.uid ?? 65534)];
  if (opts.sandboxHarness) {
    copyFileSync(opts.built.harness, join(jobDir, 'harness'));
    chmodSync(join(jobDir, 'harness'), 0o755);
    argv = sandboxArgv(
      {
        workDir: jobDir,
        writable: false,
        limits: { ...limits, processes: limits.processes + 16, addressSpace: 8 * 2 ** 30 + 6 * opts.dataBytes },
      },
      ['./harness', 'plan.txt', 'launch.args', baseline, '0'],
    );
  }
  // Whole-run wall limit: correctness, the timing budget, start-up; the harness's own per-call deadlines fire first.
  const timeoutMs = opts.maxTimingMs + 90_000;
  const r = await runCommand(argv, {
    cwd: jobDir,
    timeoutMs,
    extraPipes: 2,
    capBytes: 64 * 1024,
    stdoutCapBytes: 16 << 20,
    dropRoot: opts.sandboxHarness,
    ...(opts.uid !== undefined ? { uid: opts.uid } : {}),
    env: { PATH: '/usr/bin:/bin', HOME: '/tmp', LC_ALL: 'C', OMP_WAIT_POLICY: 'passive' },
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
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
