// The standalone runner: register, long-poll for jobs, evaluate with heartbeats, post results; survives server restarts.
import { hostname } from 'node:os';
import {
  ApiError,
  type ClaimedJob,
  type Device,
  type EvaluationProgress,
  type EvaluationState,
  RunnerClient,
} from '@kernelforge/sdk';
import { retryDelayMs, sleep } from '@kernelforge/sdk/internal';
import type { EvaluateOptions } from '../evaluate/evaluate.js';
import type { Catalogue } from '../problems/schema.js';
import { type JobLoopOptions, type JobOutcome, type JobSource, runJobLoop } from './job-loop.js';

export interface RunnerLoopOptions {
  /** One URL (a replica or a balancer) or several replicas of one deployment: the runner fails over between them. */
  serverUrl: string | string[];
  token: string;
  devices: Device[];
  problems: Catalogue;
  workDir: string;
  name?: string;
  /** How long one claim may wait on the server (ms, at most 30 000). */
  claimWaitMs?: number;
  /** Backoff after a failure: starts here, doubles up to maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Run candidates unsandboxed when bubblewrap is missing (KFORGE_ALLOW_UNSANDBOXED=1; unsafe). */
  allowUnsandboxed?: boolean;
  /** See EvaluateOptions.python (KFORGE_PYTHON, read by the entry point). */
  python?: string;
  /** See EvaluateOptions.jobCgroup (KFORGE_JOB_CGROUP, read by the entry point). */
  jobCgroup?: boolean;
  /** Passed to evaluate() (tests use 'quick'). */
  timing?: EvaluateOptions['timing'];
  /** One-job mode (autoscaling): claim one job, finish it, deregister and end. */
  once?: boolean;
  /** The version this runner registers with (the package's, and its build's commit where known). */
  version?: string;
  log?: (line: string) => void;
  /** Called after each result is accepted by the server (tests and metrics). */
  onResult?: (jobId: string, state: EvaluationState | undefined) => void;
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** "in 2000 ms (at 12:00:03.120Z)": when the next try goes out, for an operator reading the log. */
const retryAt = (ms: number) => `in ${ms} ms (at ${new Date(Date.now() + ms).toISOString().slice(11)})`;

export interface RunnerLoopHandle {
  /** Stops now: a job under way is abandoned (its lease is handed on by the server); then deregisters. */
  stop(): Promise<void>;
  /** Claims nothing more, finishes (and posts) the job under way, deregisters; resolves once that is done. */
  drain(): Promise<void>;
  /** Resolves when the loop has ended and the runner deregistered (after stop, drain, or one-job mode's job). */
  readonly done: Promise<void>;
  readonly runnerId: () => string | undefined;
}

export function startRunnerLoop(opts: RunnerLoopOptions): RunnerLoopHandle {
  const runner = new StandaloneRunner(opts);
  const done = runJobLoop(runner.source(), runner.loopOptions(), runner.stopping.signal).then(() =>
    runner.deregister(),
  );
  return {
    runnerId: () => runner.runnerId,
    done,
    async stop() {
      runner.stopping.abort();
      await done;
    },
    async drain() {
      runner.drain();
      await done;
    },
  };
}

/** The runner API as a JobSource: registration, claims with backoff, heartbeats, results posted with retries. */
class StandaloneRunner {
  readonly stopping = new AbortController();
  /** Aborted by a drain: cuts a claim's long poll short (a job under way goes on). */
  private readonly draining = new AbortController();
  /** One-job mode: set once the one job is claimed. */
  private claimedOne = false;
  runnerId: string | undefined;
  private readonly log: (line: string) => void;
  /** The sdk's runner API client: a 4xx is thrown as the sdk's ApiError (ConflictError, NotFoundError, ...). */
  private readonly api: RunnerClient;
  private readonly minBackoff: number;
  private readonly maxBackoff: number;
  private heartbeatSeconds = 10;
  private backoff: number;
  /** The sdk's one retry policy (exponential backoff with jitter) paces the posting of results. */
  private readonly resultRetry: { maxRetries: number; initialDelayMs: number; maxDelayMs: number };

  constructor(private readonly opts: RunnerLoopOptions) {
    const log = opts.log ?? ((l: string) => console.error(`${new Date().toISOString()} kforge-runner: ${l}`));
    this.log = log;
    this.api = new RunnerClient({
      serverUrls: opts.serverUrl,
      token: opts.token,
      onFailover: (failed, error, next) =>
        log(
          next === failed
            ? `server ${failed} failed (${error})`
            : `server ${failed} failed (${error}); failing over to ${next}`,
        ),
    });
    this.minBackoff = opts.minBackoffMs ?? 500;
    this.maxBackoff = opts.maxBackoffMs ?? 30_000;
    this.backoff = this.minBackoff;
    this.resultRetry = { maxRetries: 20, initialDelayMs: this.minBackoff, maxDelayMs: this.maxBackoff };
  }

  /** A stop cuts a wait short; the loop then sees the abort. */
  private pause(ms: number): Promise<void> {
    return sleep(ms, this.stopping.signal).catch(() => {});
  }

  loopOptions(): JobLoopOptions {
    const opts = this.opts;
    return {
      devices: opts.devices,
      problems: () => opts.problems,
      workDir: opts.workDir,
      ...(opts.timing ? { timing: opts.timing } : {}),
      ...(opts.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
      ...(opts.python !== undefined ? { python: opts.python } : {}),
      ...(opts.jobCgroup !== undefined ? { jobCgroup: opts.jobCgroup } : {}),
      heartbeatMs: () => Math.max(1, this.heartbeatSeconds) * 1000,
      who: 'runner',
    };
  }

  source(): JobSource<ClaimedJob> {
    return {
      claim: () => this.claim(),
      heartbeat: (job, progress) => this.heartbeat(job, progress),
      report: (job, outcome) => this.report(job, outcome),
      leaseLost: (job) => this.log(`lost the lease of job ${job.job_id}; dropped it`),
      finished: () => this.draining.signal.aborted || (this.opts.once === true && this.claimedOne),
    };
  }

  /** Claims nothing more; the job under way (if any) is finished and posted. */
  drain(): void {
    if (this.draining.signal.aborted) return;
    this.log('draining: finishing the job under way (if any), claiming no more');
    this.draining.abort();
  }

  /** Leaves the server's device list (best effort: a runner that cannot reach it is expired by the server). */
  async deregister(): Promise<void> {
    const id = this.runnerId;
    if (!id) return;
    this.runnerId = undefined;
    try {
      await this.api.deregister({ runner_id: id });
      this.log(`deregistered ${id}`);
    } catch (e) {
      this.log(`deregistering ${id} failed (${describe(e)}); the server expires it once its heartbeats stop`);
    }
  }

  private async register(): Promise<void> {
    const r = await this.api.register({
      name: this.opts.name ?? hostname(),
      devices: this.opts.devices,
      version: this.opts.version ?? '0.1.0',
    });
    this.runnerId = r.runner_id;
    this.heartbeatSeconds = r.heartbeat_seconds;
    this.log(`registered as ${this.runnerId} (heartbeat every ${this.heartbeatSeconds} s)`);
  }

  /** Registers when needed and long-polls; failures back off (doubling) and answer null. */
  private async claim(): Promise<ClaimedJob | null> {
    try {
      if (!this.runnerId) await this.register();
      if (this.draining.signal.aborted) return null;
      const claimed = await this.api.claim(
        {
          runner_id: this.runnerId as string,
          devices: this.opts.devices.map((d) => d.id),
          wait_ms: this.opts.claimWaitMs ?? 20_000,
        },
        { signal: AbortSignal.any([this.stopping.signal, this.draining.signal]) },
      );
      this.backoff = this.minBackoff;
      if (claimed.job && this.opts.once) this.claimedOne = true;
      if (claimed.job)
        this.log(`claimed job ${claimed.job.job_id} (try ${claimed.job.attempt}) from ${this.api.serverUrl}`);
      return claimed.job ?? null;
    } catch (e) {
      if (this.stopping.signal.aborted || this.draining.signal.aborted) return null;
      if (e instanceof ApiError && (e.status === 401 || e.status === 404)) {
        // The server forgot us (restart, expiry) or rejects our id: register again.
        this.runnerId = undefined;
      }
      this.log(`claiming a job failed (${describe(e)}); retrying ${retryAt(this.backoff)} at ${this.api.serverUrl}`);
      await this.pause(this.backoff);
      this.backoff = Math.min(this.maxBackoff, this.backoff * 2);
      return null;
    }
  }

  private async heartbeat(job: ClaimedJob, progress?: EvaluationProgress): Promise<boolean> {
    try {
      await this.api.heartbeat(job.job_id, {
        runner_id: this.runnerId as string,
        lease_token: job.lease_token,
        ...(progress ? { progress } : {}),
      });
      return true;
    } catch (e) {
      // 409: another runner owns the job now; our result would be refused, so stop working on it.
      if (e instanceof ApiError && (e.status === 409 || e.status === 404)) return false;
      // 422 on a progress: a server older than it (the lock and quiet stages, issue 35) refuses it; the lease is
      // still kept, by a beat without it.
      if (e instanceof ApiError && e.status === 422 && progress) return this.heartbeat(job);
      // Keep evaluating: the lease outlives a few missed beats, and the next one may reach another replica.
      const every = Math.max(1, this.heartbeatSeconds) * 1000;
      this.log(
        `heartbeat of job ${job.job_id} failed (${describe(e)}); next one ${retryAt(every)} to ${this.api.serverUrl}`,
      );
      return true;
    }
  }

  /** The result is the expensive part: posting it is retried until the server takes it or the lease is gone. */
  private async report(job: ClaimedJob, outcome: JobOutcome): Promise<void> {
    const { maxRetries } = this.resultRetry;
    for (let tries = 0; tries < maxRetries && !this.stopping.signal.aborted; tries++) {
      const posted = await this.postResult(job, outcome, tries);
      if (posted) return;
    }
    if (!this.stopping.signal.aborted)
      this.log(
        `gave up posting the result of job ${job.job_id} after ${maxRetries} tries; the server runs the job again once its lease expires`,
      );
  }

  /** One try at posting a result: true when it is settled (taken, or refused for good). */
  private async postResult(job: ClaimedJob, outcome: JobOutcome, tries: number): Promise<boolean> {
    const state = 'state' in outcome ? outcome.state : undefined;
    const error = 'error' in outcome ? outcome.error : undefined;
    try {
      await this.api.result(job.job_id, {
        runner_id: this.runnerId as string,
        lease_token: job.lease_token,
        ...(state ? { evaluation_state: state } : {}),
        ...(error !== undefined ? { error } : {}),
      });
      this.opts.onResult?.(job.job_id, state);
      this.log(`job ${job.job_id}: ${state ? state.verdict : `error: ${error}`} (posted to ${this.api.serverUrl})`);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
        this.log(`the server refused the result of job ${job.job_id}: ${e.message}`);
        return true;
      }
      const delay = retryDelayMs(tries, this.resultRetry);
      this.log(
        `posting the result of job ${job.job_id} failed (${describe(e)}); try ${tries + 2} of ${this.resultRetry.maxRetries} ${retryAt(delay)} to ${this.api.serverUrl}`,
      );
      await this.pause(delay);
      return false;
    }
  }
}
