// The standalone runner: register, long-poll for jobs, evaluate with heartbeats, post results; survives server restarts.
import { hostname } from 'node:os';
import type { ClaimedJob, Device, EvaluationState } from '@kernelforge/sdk';
import { evaluate, EvaluationSetupError, type EvaluateOptions } from '../evaluate/evaluate.js';
import type { Catalogue } from '../problems/schema.js';
import { RunnerApiClient, RunnerHttpError } from './protocol-client.js';

export interface RunnerLoopOptions {
  serverUrl: string;
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
  /** Passed to evaluate() (tests use 'quick'). */
  timing?: EvaluateOptions['timing'];
  log?: (line: string) => void;
  /** Called after each result is accepted by the server (tests and metrics). */
  onResult?: (jobId: string, state: EvaluationState | undefined) => void;
}

export interface RunnerLoopHandle {
  stop(): Promise<void>;
  readonly runnerId: () => string | undefined;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });

export function startRunnerLoop(opts: RunnerLoopOptions): RunnerLoopHandle {
  const api = new RunnerApiClient(opts.serverUrl, opts.token);
  const log = opts.log ?? ((l: string) => console.error(`kforge-runner: ${l}`));
  const stopping = new AbortController();
  const minBackoff = opts.minBackoffMs ?? 500;
  const maxBackoff = opts.maxBackoffMs ?? 30_000;
  let runnerId: string | undefined;
  let heartbeatSeconds = 10;
  let backoff = minBackoff;

  const register = async () => {
    const r = await api.register({ name: opts.name ?? hostname(), devices: opts.devices, version: '0.1.0' });
    runnerId = r.runner_id;
    heartbeatSeconds = r.heartbeat_seconds;
    log(`registered as ${runnerId} (heartbeat every ${heartbeatSeconds} s)`);
  };

  const runJob = async (job: ClaimedJob, id: string) => {
    const device = opts.devices.find((d) => d.id === job.payload.device);
    const lease = new AbortController();
    const beat = setInterval(() => {
      api.heartbeat(job.job_id, id, job.lease_token).catch((e: unknown) => {
        // 409: another runner owns the job now; our result would be refused, so stop working on it.
        if (e instanceof RunnerHttpError && (e.status === 409 || e.status === 404)) lease.abort();
      });
    }, Math.max(1, heartbeatSeconds) * 1000);
    let state: EvaluationState | undefined;
    let error: string | undefined;
    try {
      if (!device) throw new EvaluationSetupError(`this runner does not serve ${job.payload.device}`);
      state = await evaluate(job.payload, {
        problems: opts.problems,
        device,
        workDir: opts.workDir,
        signal: AbortSignal.any([lease.signal, stopping.signal]),
        ...(opts.timing ? { timing: opts.timing } : {}),
      });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    } finally {
      clearInterval(beat);
    }
    if (lease.signal.aborted) {
      log(`lost the lease of job ${job.job_id}; dropped it`);
      return;
    }
    // The result is the expensive part: retry posting it until the server takes it or the lease is gone.
    for (let tries = 0; tries < 20 && !stopping.signal.aborted; tries++) {
      try {
        await api.result(job.job_id, {
          runner_id: id,
          lease_token: job.lease_token,
          ...(state ? { evaluation_state: state } : {}),
          ...(error !== undefined ? { error } : {}),
        });
        opts.onResult?.(job.job_id, state);
        log(`job ${job.job_id}: ${state ? state.verdict : `error: ${error}`}`);
        return;
      } catch (e) {
        if (e instanceof RunnerHttpError && e.status >= 400 && e.status < 500) {
          log(`the server refused the result of job ${job.job_id}: ${e.message}`);
          return;
        }
        await sleep(Math.min(maxBackoff, minBackoff * 2 ** tries), stopping.signal);
      }
    }
  };

  const loop = async () => {
    while (!stopping.signal.aborted) {
      try {
        if (!runnerId) await register();
        const id = runnerId as string;
        const claim = await api.claim(
          id,
          opts.devices.map((d) => d.id),
          opts.claimWaitMs ?? 20_000,
          stopping.signal,
        );
        backoff = minBackoff;
        if (claim.job) await runJob(claim.job, id);
      } catch (e) {
        if (stopping.signal.aborted) break;
        if (e instanceof RunnerHttpError && (e.status === 401 || e.status === 404)) {
          // The server forgot us (restart, expiry) or rejects our id: register again.
          runnerId = undefined;
        }
        log(`${e instanceof Error ? e.message : String(e)}; retrying in ${backoff} ms`);
        await sleep(backoff, stopping.signal);
        backoff = Math.min(maxBackoff, backoff * 2);
      }
    }
  };

  const done = loop();
  return {
    runnerId: () => runnerId,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
