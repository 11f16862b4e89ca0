// The one evaluation job loop: claim, evaluate under a heartbeat, report; the in-process and standalone runners drive it.
import type { Device, EvaluationJobPayload, EvaluationState } from '@kernelforge/sdk';
import { type EvaluateOptions, EvaluationSetupError, evaluate } from '../evaluate/evaluate.js';
import { deviceForJob } from '../devices/cpu.js';
import type { Catalogue } from '../problems/schema.js';

/** What an evaluation came to: a state (whatever its verdict), or why none could be made. */
export type JobOutcome = { state: EvaluationState } | { error: string };

/** A leased evaluation job, however it was claimed. */
export interface LeasedJob {
  payload: EvaluationJobPayload;
}

/** Where jobs come from and results go: the jobs table (in-process runner) or the runner API (standalone). */
export interface JobSource<J extends LeasedJob> {
  /** The next job, or null when none came (the source waits, and handles its own errors, before answering null). */
  claim(halt: AbortSignal): Promise<J | null>;
  /** Extends the lease; false when the job is no longer this runner's. */
  heartbeat(job: J): Promise<boolean>;
  /** Hands in the outcome (only called while the lease was held to the end). */
  report(job: J, outcome: JobOutcome): Promise<void>;
  /** The lease was lost while evaluating: the job is someone else's now and its outcome is dropped. */
  leaseLost?(job: J): void;
}

export interface JobLoopOptions {
  /** The devices this runner serves; a job for any other fails with a setup error. */
  devices: Device[];
  problems: () => Catalogue | Promise<Catalogue>;
  workDir: string;
  timing?: EvaluateOptions['timing'];
  /** See EvaluateOptions.allowUnsandboxed. */
  allowUnsandboxed?: boolean;
  /** See EvaluateOptions.python (KFORGE_PYTHON, read by the entry points). */
  python?: string;
  /** See EvaluateOptions.jobCgroup (KFORGE_JOB_CGROUP, read by the entry points). */
  jobCgroup?: boolean;
  /** How often to heartbeat a job being evaluated (read for each job: a registration may change it). */
  heartbeatMs: () => number;
  /** Names this runner in a setup error ("this <who> does not serve <device>"). */
  who: string;
}

/** Claims and evaluates one job at a time until `halt`: on one machine two benchmarks would disturb each other. */
export async function runJobLoop<J extends LeasedJob>(
  source: JobSource<J>,
  opts: JobLoopOptions,
  halt: AbortSignal,
): Promise<void> {
  while (!halt.aborted) {
    const job = await source.claim(halt);
    if (job && !halt.aborted) await runLeasedJob(source, job, opts, halt);
  }
}

async function runLeasedJob<J extends LeasedJob>(
  source: JobSource<J>,
  job: J,
  opts: JobLoopOptions,
  halt: AbortSignal,
): Promise<void> {
  const lease = new AbortController();
  const beat = setInterval(() => {
    source
      .heartbeat(job)
      .then((held) => {
        if (!held) lease.abort();
      })
      .catch(() => {});
  }, opts.heartbeatMs());
  let outcome: JobOutcome;
  try {
    // Its own id, or the generic one it extends (a job queued under `cpu-x86_64` before devices were named by model).
    const device = deviceForJob(opts.devices, job.payload.device);
    if (!device) throw new EvaluationSetupError(`this ${opts.who} does not serve ${job.payload.device}`);
    const state = await evaluate(job.payload, {
      problems: await opts.problems(),
      device,
      workDir: opts.workDir,
      signal: AbortSignal.any([lease.signal, halt]),
      ...(opts.timing ? { timing: opts.timing } : {}),
      ...(opts.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
      ...(opts.python !== undefined ? { python: opts.python } : {}),
      ...(opts.jobCgroup !== undefined ? { jobCgroup: opts.jobCgroup } : {}),
    });
    outcome = { state };
  } catch (err) {
    outcome = { error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearInterval(beat);
  }
  // A lost lease or a shutdown: the job is (or will be) someone else's; a half-made result is not worth keeping.
  if (lease.signal.aborted) {
    source.leaseLost?.(job);
    return;
  }
  if (halt.aborted) return;
  await source.report(job, outcome);
}
