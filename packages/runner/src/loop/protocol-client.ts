// Plain-fetch client of the runner API (packages/sdk/src/schemas/runner.ts); statuses surface as RunnerHttpError.
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

export class RunnerApiClient {
  constructor(
    private readonly serverUrl: string,
    private readonly token: string,
  ) {}

  private async post<T>(path: string, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const res = await fetch(`${this.serverUrl.replace(/\/$/, '')}/api/v1/runner${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const text = await res.text();
    if (!res.ok) throw new RunnerHttpError(res.status, text);
    return (text ? JSON.parse(text) : {}) as T;
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
