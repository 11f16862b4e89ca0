// Plain-fetch client of the runner API (packages/sdk/src/schemas/runner.ts), failing over across server URLs; 4xx surface as RunnerHttpError.
import type {
  RunnerClaimResponse,
  RunnerHeartbeatResponse,
  RunnerRegisterRequest,
  RunnerRegisterResponse,
  RunnerResultRequest,
} from '@kernelforge/sdk';

export class RunnerHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`runner API answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** No server answered: every URL refused the connection, timed out or answered 5xx. */
export class RunnerUnreachableError extends Error {
  constructor(readonly failures: string[]) {
    super(failures.join('; '));
  }
}

/**
 * Several server URLs (replicas, or one balancer): requests go to the one that answered last; a connection error,
 * a timeout or a 5xx moves on to the next, so one call tries each replica once before it fails. A 4xx is an answer
 * (the job is someone else's, the token is wrong) and is never retried elsewhere. Every replica shares one database,
 * so a runner id and a lease token from one are honoured by the others.
 */
export class RunnerApiClient {
  private readonly urls: string[];
  private current = 0;

  constructor(
    serverUrls: string | string[],
    private readonly token: string,
    /** Told each time a server fails and which one the next request goes to. */
    private readonly onFailover: (failed: string, error: string, next: string) => void = () => {},
  ) {
    this.urls = (Array.isArray(serverUrls) ? serverUrls : [serverUrls]).map((u) => u.replace(/\/$/, ''));
    if (this.urls.length === 0) throw new Error('RunnerApiClient needs at least one server URL');
  }

  /** The server the next request goes to. */
  get serverUrl(): string {
    return this.urls[this.current] as string;
  }

  private async post<T>(path: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    const failures: string[] = [];
    for (let tried = 0; tried < this.urls.length; tried++) {
      const url = this.serverUrl;
      let res: Response;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(timeoutMs);
        res = await fetch(`${url}/api/v1/runner${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
          body: JSON.stringify(body),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        text = await res.text();
      } catch (e) {
        // Our own stop is not the server's fault: no failover, no log.
        if (signal?.aborted) throw e;
        failures.push(`${url}: ${describeFetchError(e)}`);
        this.failOver(url, describeFetchError(e));
        continue;
      }
      if (res.status >= 500) {
        failures.push(`${url}: answered ${res.status}`);
        this.failOver(url, `answered ${res.status}: ${text.slice(0, 200)}`);
        continue;
      }
      if (!res.ok) throw new RunnerHttpError(res.status, text);
      return (text ? JSON.parse(text) : {}) as T;
    }
    throw new RunnerUnreachableError(failures);
  }

  private failOver(failed: string, error: string): void {
    if (this.urls[this.current] === failed) this.current = (this.current + 1) % this.urls.length;
    this.onFailover(failed, error, this.serverUrl);
  }

  register(req: RunnerRegisterRequest): Promise<RunnerRegisterResponse> {
    return this.post('/register', req, 15_000);
  }

  claim(runnerId: string, devices: string[], waitMs: number, signal?: AbortSignal): Promise<RunnerClaimResponse> {
    return this.post('/claim', { runner_id: runnerId, devices, wait_ms: waitMs }, waitMs + 15_000, signal);
  }

  heartbeat(jobId: string, runnerId: string, leaseToken: string): Promise<RunnerHeartbeatResponse> {
    return this.post(
      `/jobs/${encodeURIComponent(jobId)}/heartbeat`,
      { runner_id: runnerId, lease_token: leaseToken },
      15_000,
    );
  }

  result(jobId: string, req: RunnerResultRequest): Promise<unknown> {
    return this.post(`/jobs/${encodeURIComponent(jobId)}/result`, req, 30_000);
  }
}

/** fetch's TypeError says only "fetch failed"; the reason (ECONNREFUSED, a timeout) is in its cause. */
function describeFetchError(e: unknown): string {
  if (e instanceof Error && e.name === 'TimeoutError') return 'timed out';
  const cause = e instanceof Error ? (e.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code) return `${cause.code}`;
  if (cause?.message) return cause.message;
  return e instanceof Error ? e.message : String(e);
}
