// The standalone runner: register, long-poll for jobs, evaluate with heartbeats, post results; survives server restarts.
import { hostname } from 'node:os';
import { ApiError, type ClaimedJob, type Device, type EvaluationState, RunnerClient } from '@kernelforge/sdk';
import { retryDelayMs, sleep } from '@kernelforge/sdk/internal';
import type { EvaluateOptions } from '../evaluate/evaluate.js';
import type { Catalogue } from '../problems/schema.js';
import { type JobOutcome, type JobSource, runJobLoop } from './job-loop.js';

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
  /** Passed to evaluate() (tests use 'quick'). */
  timing?: EvaluateOptions['timing'];
  log?: (line: string) => void;
  /** Called after each result is accepted by the server (tests and metrics). */
  onResult?: (jobId: string, state: EvaluationState | undefined) => void;
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** "in 2000 ms (at 12:00:03.120Z)": when the next try goes out, for an operator reading the log. */
const retryAt = (ms: number) => `in ${ms} ms (at ${new Date(Date.now() + ms).toISOString().slice(11)})`;

export interface RunnerLoopHandle {
  stop(): Promise<void>;
  readonly runnerId: () => string | undefined;
}

export function startRunnerLoop(opts: RunnerLoopOptions): RunnerLoopHandle {
  const log = opts.log ?? ((l: string) => console.error(`kforge-runner: ${l}`));
  // The sdk's runner API client: a 4xx is thrown as the sdk's ApiError (ConflictError, NotFoundError, ...).
  const api = new RunnerClient({
    serverUrls: opts.serverUrl,
    token: opts.token,
    onFailover: (failed, error, next) =>
      log(
        next === failed
          ? `server ${failed} failed (${error})`
          : `server ${failed} failed (${error}); failing over to ${next}`,
      ),
  });
  const stopping = new AbortController();
  const minBackoff = opts.minBackoffMs ?? 500;
  const maxBackoff = opts.maxBackoffMs ?? 30_000;
  let runnerId: string | undefined;
  let heartbeatSeconds = 10;
  let backoff = minBackoff;
  // The sdk's one retry policy (exponential backoff with jitter) paces the posting of results.
  const resultRetry = { maxRetries: 20, initialDelayMs: minBackoff, maxDelayMs: maxBackoff };
  // A stop cuts a wait short; the loop then sees the abort.
  const pause = (ms: number) => sleep(ms, stopping.signal).catch(() => {});

  const register = async () => {
    const r = await api.register({ name: opts.name ?? hostname(), devices: opts.devices, version: '0.1.0' });
    runnerId = r.runner_id;
    heartbeatSeconds = r.heartbeat_seconds;
    log(`registered as ${runnerId} (heartbeat every ${heartbeatSeconds} s)`);
  };

  const report = async (job: ClaimedJob, outcome: JobOutcome) => {
    const id = runnerId as string;
    const state = 'state' in outcome ? outcome.state : undefined;
    const error = 'error' in outcome ? outcome.error : undefined;
    // The result is the expensive part: retry posting it until the server takes it or the lease is gone.
    for (let tries = 0; tries < resultRetry.maxRetries && !stopping.signal.aborted; tries++) {
      try {
        await api.result(job.job_id, {
          runner_id: id,
          lease_token: job.lease_token,
          ...(state ? { evaluation_state: state } : {}),
          ...(error !== undefined ? { error } : {}),
        });
        opts.onResult?.(job.job_id, state);
        log(`job ${job.job_id}: ${state ? state.verdict : `error: ${error}`} (posted to ${api.serverUrl})`);
        return;
      } catch (e) {
        if (e instanceof ApiError && e.status >= 400 && e.status < 500) {
          log(`the server refused the result of job ${job.job_id}: ${e.message}`);
          return;
        }
        const delay = retryDelayMs(tries, resultRetry);
        log(
          `posting the result of job ${job.job_id} failed (${describe(e)}); try ${tries + 2} of ${resultRetry.maxRetries} ${retryAt(delay)} to ${api.serverUrl}`,
        );
        await pause(delay);
      }
    }
    if (!stopping.signal.aborted)
      log(
        `gave up posting the result of job ${job.job_id} after ${resultRetry.maxRetries} tries; the server runs the job again once its lease expires`,
      );
  };

  /** Registers when needed and long-polls; failures back off (doubling) and answer null. */
  const claim = async (): Promise<ClaimedJob | null> => {
    try {
      if (!runnerId) await register();
      const claimed = await api.claim(
        { runner_id: runnerId as string, devices: opts.devices.map((d) => d.id), wait_ms: opts.claimWaitMs ?? 20_000 },
        { signal: stopping.signal },
      );
      backoff = minBackoff;
      if (claimed.job) log(`claimed job ${claimed.job.job_id} (try ${claimed.job.attempt}) from ${api.serverUrl}`);
      return claimed.job ?? null;
    } catch (e) {
      if (stopping.signal.aborted) return null;
      if (e instanceof ApiError && (e.status === 401 || e.status === 404)) {
        // The server forgot us (restart, expiry) or rejects our id: register again.
        runnerId = undefined;
      }
      log(`claiming a job failed (${describe(e)}); retrying ${retryAt(backoff)} at ${api.serverUrl}`);
      await pause(backoff);
      backoff = Math.min(maxBackoff, backoff * 2);
      return null;
    }
  };

  const source: JobSource<ClaimedJob> = {
    claim,
    async heartbeat(job) {
      try {
        await api.heartbeat(job.job_id, { runner_id: runnerId as string, lease_token: job.lease_token });
        return true;
      } catch (e) {
        // 409: another runner owns the job now; our result would be refused, so stop working on it.
        if (e instanceof ApiError && (e.status === 409 || e.status === 404)) return false;
        // Keep evaluating: the lease outlives a few missed beats, and the next one may reach another replica.
        const every = Math.max(1, heartbeatSeconds) * 1000;
        log(`heartbeat of job ${job.job_id} failed (${describe(e)}); next one ${retryAt(every)} to ${api.serverUrl}`);
        return true;
      }
    },
    report,
    leaseLost: (job) => log(`lost the lease of job ${job.job_id}; dropped it`),
  };
  const loop = () =>
    runJobLoop(
      source,
      {
        devices: opts.devices,
        problems: () => opts.problems,
        workDir: opts.workDir,
        ...(opts.timing ? { timing: opts.timing } : {}),
        ...(opts.allowUnsandboxed ? { allowUnsandboxed: true } : {}),
        heartbeatMs: () => Math.max(1, heartbeatSeconds) * 1000,
        who: 'runner',
      },
      stopping.signal,
    );

  const done = loop();
  return {
    runnerId: () => runnerId,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
