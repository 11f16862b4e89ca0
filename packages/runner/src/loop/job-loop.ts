// The one leased-job loop (claim, work under a heartbeat, report) and evaluation on it; the in-process and standalone
// runners evaluate on it, the server's generate workers write attempts on it.
import type { Device, EvaluationJobPayload, EvaluationProgress, EvaluationState } from '@kernelforge/sdk';
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
  /**
   * Extends the lease; false when the job is no longer this runner's. `progress`: where the evaluation is now (the
   * session page shows it); also sent on its own, at most every `progressMs`, when it changes between beats.
   */
  heartbeat(job: J, progress?: EvaluationProgress): Promise<boolean>;
  /** Hands in the outcome (only called while the lease was held to the end). */
  report(job: J, outcome: JobOutcome): Promise<void>;
  /** The lease was lost while evaluating: the job is someone else's now and its outcome is dropped. */
  leaseLost?(job: J): void;
  /** True once the source claims nothing more (a draining or one-job runner): the loop ends after the current job. */
  finished?(): boolean;
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
  /** The least time between two heartbeats that carry new progress (default PROGRESS_EVERY_MS). */
  progressMs?: number;
}

/** How often, at most, a change of an evaluation's progress is sent between its lease's heartbeats. */
export const PROGRESS_EVERY_MS = 2000;

/**
 * One job's latest progress, sent with every lease heartbeat and, when it changes, on its own: a new stage at once,
 * a new case or sample count at most every `everyMs` (so the session page follows case i of n without a heartbeat
 * per sample).
 */
class LiveProgress {
  current: EvaluationProgress | undefined;
  private sentAt = 0;
  private sentKey = '';
  private sentStage: EvaluationProgress['stage'] | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly send: (progress: EvaluationProgress) => Promise<unknown>,
    private readonly everyMs: number,
  ) {}

  set(progress: EvaluationProgress): void {
    this.current = progress;
    if (this.stopped) return;
    // A new stage goes at once (three a job at most: a quick evaluation checks and times within a second or two);
    // a new case or sample count within one waits for its turn.
    if (progress.stage !== this.sentStage) {
      clearTimeout(this.timer);
      this.flush();
      return;
    }
    if (this.timer) return;
    const wait = this.sentAt + this.everyMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** A lease heartbeat is about to carry the current progress. */
  beat(): EvaluationProgress | undefined {
    if (this.current) this.mark(this.current);
    return this.current;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private mark(progress: EvaluationProgress): void {
    this.sentAt = Date.now();
    this.sentKey = JSON.stringify(progress);
    this.sentStage = progress.stage;
  }

  private flush(): void {
    this.timer = undefined;
    const progress = this.current;
    if (this.stopped || !progress || JSON.stringify(progress) === this.sentKey) return;
    this.mark(progress);
    // A lost lease is the lease heartbeat's to notice; a failed send is retried by the next change or beat.
    this.send(progress).catch(() => {});
  }
}

/**
 * What a leased-job loop needs: where jobs come from, how their leases are kept, the work and where its outcome goes.
 * Evaluation jobs (`runJobLoop`, both runners) and the server's generate jobs run on it.
 */
export interface LeaseWorker<J, O> {
  /** The next job, or null when none came (the worker waits, and handles its own errors, before answering null). */
  claim(halt: AbortSignal): Promise<J | null>;
  /** Extends the lease; false when the job is no longer this worker's. A throw is a missed beat, not a lost lease. */
  heartbeat(job: J): Promise<boolean>;
  /** How often to heartbeat (read for each job: a registration may change it). */
  heartbeatMs(): number;
  /** Does the job; `signal` aborts when the lease is lost or the loop halts. What it throws reaches `report`. */
  work(job: J, signal: AbortSignal): Promise<O>;
  /** Hands in the outcome; called only while the lease was held to the end and the loop was not halted. */
  report(job: J, outcome: Settled<O>): Promise<void>;
  /** The lease was lost while working: the job is someone else's now and its outcome is dropped. */
  leaseLost?(job: J): void;
  /** True once no more jobs are to be claimed: the loop ends after the current one (drain, one-job mode). */
  finished?(): boolean;
}

/** What the work came to: its value, or what it threw. */
export type Settled<O> = { value: O } | { error: unknown };

/**
 * The one leased-job loop: claim, work under a heartbeat, report; one job at a time per loop, until `halt`.
 * A lost lease or a halt drops the outcome (the job is, or will be once its lease lapses, someone else's).
 */
export async function runLeaseLoop<J, O>(worker: LeaseWorker<J, O>, halt: AbortSignal): Promise<void> {
  while (!halt.aborted && !worker.finished?.()) {
    const job = await worker.claim(halt);
    if (job && !halt.aborted) await runLeased(worker, job, halt);
  }
}

async function runLeased<J, O>(worker: LeaseWorker<J, O>, job: J, halt: AbortSignal): Promise<void> {
  const lease = new AbortController();
  const beat = setInterval(() => {
    worker
      .heartbeat(job)
      .then((held) => {
        if (!held) lease.abort(new Error('lease lost'));
      })
      .catch(() => {});
  }, worker.heartbeatMs());
  let outcome: Settled<O>;
  try {
    outcome = { value: await worker.work(job, AbortSignal.any([lease.signal, halt])) };
  } catch (error) {
    outcome = { error };
  } finally {
    clearInterval(beat);
  }
  if (lease.signal.aborted) {
    worker.leaseLost?.(job);
    return;
  }
  if (halt.aborted) return;
  await worker.report(job, outcome);
}

/**
 * Claims and evaluates one job at a time until `halt`: on one machine two benchmarks would disturb each other.
 * The lease loop with evaluation as its work.
 */
export function runJobLoop<J extends LeasedJob>(
  source: JobSource<J>,
  opts: JobLoopOptions,
  halt: AbortSignal,
): Promise<void> {
  const live = new Map<J, LiveProgress>();
  return runLeaseLoop<J, EvaluationState>(
    {
      claim: (h) => source.claim(h),
      heartbeat: (job) => source.heartbeat(job, live.get(job)?.beat()),
      heartbeatMs: opts.heartbeatMs,
      work: async (job, signal) => {
        const progress = new LiveProgress((p) => source.heartbeat(job, p), opts.progressMs ?? PROGRESS_EVERY_MS);
        live.set(job, progress);
        try {
          return await evaluateJob(job, opts, signal, (p) => progress.set(p));
        } finally {
          progress.stop();
          live.delete(job);
        }
      },
      report: (job, settled) =>
        source.report(
          job,
          'value' in settled
            ? { state: settled.value }
            : { error: settled.error instanceof Error ? settled.error.message : String(settled.error) },
        ),
      ...(source.leaseLost ? { leaseLost: (job: J) => source.leaseLost?.(job) } : {}),
      ...(source.finished ? { finished: () => source.finished?.() === true } : {}),
    },
    halt,
  );
}

async function evaluateJob(
  job: LeasedJob,
  opts: JobLoopOptions,
  signal: AbortSignal,
  onProgress: (progress: EvaluationProgress) => void,
): Promise<EvaluationState> {
  // Its own id, or the generic one it extends (a job queued under `cpu-x86_64` before devices were named by model).
  const device = deviceForJob(opts.devices, job.payload.device);
  if (!device) throw new EvaluationSetupError(`this ${opts.who} does not serve ${job.payload.device}`);
  return evaluate(job.payload, {
    problems: await opts.problems(),
    device,
    workDir: opts.workDir,
    signal,
    onProgress,
    ...(opts.timing ? { timing: opts.timing } : {}),
    ...(opts.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
    ...(opts.python !== undefined ? { python: opts.python } : {}),
    ...(opts.jobCgroup !== undefined ? { jobCgroup: opts.jobCgroup } : {}),
  });
}
