// The runner API's client (`/api/v1/runner/...`, schemas in ../schemas/runner.ts), for `kforge-runner`: a runner
// token instead of a user's, and failover across the replicas of one deployment.
import type { z } from 'zod';
import { ApiError, ConnectionError, RunnerUnreachableError, TimeoutError } from '../core/errors.js';
import { type Fetch, HttpClient, path, type RequestOptions } from '../core/http.js';
import { MemoryTokenStore } from '../core/token.js';
import { Message } from '../schemas/common.js';
import {
  type RunnerClaimRequest,
  RunnerClaimResponse,
  type RunnerDeregisterRequest,
  type RunnerHeartbeatRequest,
  RunnerHeartbeatResponse,
  type RunnerRegisterRequest,
  RunnerRegisterResponse,
  type RunnerResultRequest,
} from '../schemas/runner.js';

export interface RunnerClientOptions {
  /** One URL (a replica or a balancer) or several replicas of one deployment. */
  serverUrls: string | string[];
  /** The runner token (`KFORGE_RUNNER_TOKEN` on the server). */
  token: string;
  fetch?: Fetch;
  /** Told each time a server fails: which one, why, and which one the next request goes to. */
  onFailover?: (failed: string, error: string, next: string) => void;
}

/** How long each call may take unless its options say otherwise (a claim: its long-poll wait and this). */
const TIMEOUT_MS = { register: 15_000, claim: 15_000, heartbeat: 15_000, result: 30_000, deregister: 10_000 } as const;

/**
 * Requests go to the server that answered last; a connection error, a timeout or a 5xx moves on to the next, so one
 * call tries each server once before it throws `RunnerUnreachableError`. A 4xx is an answer (the job is someone
 * else's: `ConflictError`; the runner is unknown: `NotFoundError`; the token is wrong: `AuthenticationError`) and is
 * thrown as the sdk's `ApiError` subclass, never retried elsewhere. Every replica shares one database, so a runner id
 * and a lease token from one are honoured by the others. No call is retried on the same server: the runner paces its
 * own retries.
 */
export class RunnerClient {
  readonly #servers: { url: string; http: HttpClient }[];
  readonly #onFailover: NonNullable<RunnerClientOptions['onFailover']>;
  #current = 0;

  constructor(options: RunnerClientOptions) {
    const urls = (Array.isArray(options.serverUrls) ? options.serverUrls : [options.serverUrls]).map((u) =>
      u.replace(/\/+$/, ''),
    );
    if (urls.length === 0) throw new Error('RunnerClient needs at least one server URL');
    const tokenStore = new MemoryTokenStore(options.token);
    this.#servers = urls.map((url) => ({
      url,
      http: new HttpClient({
        baseUrl: `${url}/api/v1`,
        tokenStore,
        retry: { maxRetries: 0 },
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    }));
    this.#onFailover = options.onFailover ?? (() => {});
  }

  /** The server the next request goes to. */
  get serverUrl(): string {
    return (this.#servers[this.#current] as { url: string }).url;
  }

  /** POST /api/v1/runner/register */
  register(body: RunnerRegisterRequest, options?: RequestOptions) {
    return this.#post('/runner/register', body, RunnerRegisterResponse, TIMEOUT_MS.register, options);
  }

  /** POST /api/v1/runner/claim: long-polls up to `wait_ms` for a job; `job` is null when none came. */
  claim(body: RunnerClaimRequest, options?: RequestOptions) {
    return this.#post('/runner/claim', body, RunnerClaimResponse, (body.wait_ms ?? 0) + TIMEOUT_MS.claim, options);
  }

  /** POST /api/v1/runner/jobs/{id}/heartbeat: extends the lease (409 once the job is someone else's); `progress`, where
      given, is what the session page shows of the evaluation. */
  heartbeat(jobId: string, body: RunnerHeartbeatRequest, options?: RequestOptions) {
    return this.#post(
      path`/runner/jobs/${jobId}/heartbeat`,
      body,
      RunnerHeartbeatResponse,
      TIMEOUT_MS.heartbeat,
      options,
    );
  }

  /** POST /api/v1/runner/jobs/{id}/result: the evaluation, or the error that prevented one. */
  result(jobId: string, body: RunnerResultRequest, options?: RequestOptions) {
    return this.#post(path`/runner/jobs/${jobId}/result`, body, Message, TIMEOUT_MS.result, options);
  }

  /** POST /api/v1/runner/deregister: this runner leaves the device list now (a drained or one-job runner). */
  deregister(body: RunnerDeregisterRequest, options?: RequestOptions) {
    return this.#post('/runner/deregister', body, Message, TIMEOUT_MS.deregister, options);
  }

  async #post<T>(
    route: string,
    json: unknown,
    schema: z.ZodType<T>,
    timeoutMs: number,
    options: RequestOptions = {},
  ): Promise<T> {
    const failures: string[] = [];
    for (let tried = 0; tried < this.#servers.length; tried++) {
      const server = this.#servers[this.#current] as { url: string; http: HttpClient };
      try {
        return await server.http.request({ timeoutMs, ...options, method: 'POST', path: route, json, schema });
      } catch (error) {
        // Our own stop is not the server's fault: no failover, no report.
        if (options.signal?.aborted) throw error;
        const reason = failoverReason(error);
        if (reason === undefined) throw error;
        failures.push(`${server.url}: ${reason}`);
        this.#failOver(server.url, reason);
      }
    }
    throw new RunnerUnreachableError(failures);
  }

  #failOver(failed: string, reason: string): void {
    if (this.serverUrl === failed) this.#current = (this.#current + 1) % this.#servers.length;
    this.#onFailover(failed, reason, this.serverUrl);
  }
}

/** Why a server counts as failed (a connection error, a timeout, a 5xx), or undefined for an answer to pass on. */
function failoverReason(error: unknown): string | undefined {
  if (error instanceof TimeoutError) return 'timed out';
  if (error instanceof ConnectionError) {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, a reset) is in its cause.
    const cause = (error.cause as { cause?: { code?: string; message?: string } } | undefined)?.cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  if (error instanceof ApiError && error.status >= 500)
    return `answered ${error.status}: ${(error.detail ?? '').slice(0, 200)}`;
  return undefined;
}
