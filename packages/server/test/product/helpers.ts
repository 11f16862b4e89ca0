// Shared pieces of the product tests: a server with a runner token, a stand-in runner registration, polling helpers.
import type { AgentSession, Device } from '@kernelforge/sdk';
import { createTestApp, type TestApp, type TestAppOptions } from '../helpers/app.js';
import {
  startTestServer,
  type TestServer,
  type TestServerOptions,
  type TestTarget,
  type TestUser,
} from '../helpers/server.js';

export const RUNNER_TOKEN = 'test-runner-token-0123456789';

/** A device record as a runner announces it (tests that never evaluate register it without running anything). */
export const CPU: Device = {
  id: 'cpu-x86_64',
  kind: 'cpu',
  name: 'Test CPU',
  cores: 2,
  peaks: { bandwidth_gbps: 20, fp32_gflops: 200, source: 'measured' },
  available: true,
  runners: 1,
  languages: ['c', 'cpp'],
};

/** A server with a runner token and quick timings; queue knobs (KFORGE_JOB_..., KFORGE_SESSION_...) go in `env`. */
export function startProductServer(opts: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer({
    ...opts,
    env: { KFORGE_RUNNER_TOKEN: RUNNER_TOKEN, KFORGE_RUNNER_TIMING: 'quick', ...opts.env },
  });
}

/** The same, answering in process (helpers/app.ts): no port, no background work; for route checks. */
export function createProductApp(opts: TestAppOptions = {}): Promise<TestApp> {
  return createTestApp({
    ...opts,
    env: { KFORGE_RUNNER_TOKEN: RUNNER_TOKEN, KFORGE_RUNNER_TIMING: 'quick', ...opts.env },
  });
}

export async function registerRunner(
  server: TestTarget,
  devices: Device[] = [CPU],
  name = 'stand-in',
): Promise<string> {
  const res = await server.request('/api/v1/runner/register', {
    method: 'POST',
    token: RUNNER_TOKEN,
    json: { name, devices },
  });
  if (res.status !== 200) throw new Error(`register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { runner_id: string }).runner_id;
}

export async function json<T = unknown>(res: Response | Promise<Response>): Promise<{ status: number; body: T }> {
  const r = await res;
  const text = await r.text();
  return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Polls until `check` returns a value (not undefined/false), or fails with the last seen state. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'a condition'}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}

export async function getSession(server: TestTarget, token: string, id: string): Promise<AgentSession> {
  const { status, body } = await json<AgentSession>(server.request(`/api/v1/agent-session/${id}`, { token }));
  if (status !== 200) throw new Error(`GET session ${id}: ${status}`);
  return body;
}

/** A second cpu device that only submission tests use, so their jobs never mix with session evaluations. */
export const CPU_B: Device = { ...CPU, id: 'cpu-board', name: 'Board CPU' };

/** A runner's report as the contract shapes it; `time` null gives a rejected verdict. */
export function fakeState(mode: 'benchmark' | 'ranked', time: number | null) {
  return {
    verdict: time === null ? 'incorrect' : 'accepted',
    mode,
    message: time === null ? 'incorrect: y[3] differs' : `accepted in ${time} ms`,
    compile: { ok: true, compiler: 'cc', flags: ['-O3'], log: '', duration_ms: 10 },
    correctness: {
      passed: time !== null,
      cases: [
        {
          name: 'hidden',
          sizes: { n: 123457 },
          seed: 1,
          distribution: 'uniform',
          passed: time !== null,
          max_abs_error: 0,
          mean_abs_error: 0,
          max_rel_error: 0,
          mean_rel_error: 0,
        },
      ],
    },
    benchmarking_result:
      time === null
        ? null
        : {
            optimized_time: time,
            baseline_time: time * 2,
            speedup: 2,
            gbps: 1,
            gflops: 1,
            fraction_of_peak: 0.1,
            cases: [],
            flagged_for_review: false,
            review_reasons: [],
          },
    stdout: 'candidate output',
    runner_seconds: 0.25,
    evaluated_at: new Date().toISOString(),
  };
}

export interface Claimed {
  job_id: string;
  lease_token: string;
  payload: { kind: string; target_id: string; mode: string; secret_seed?: string; device: string };
}

export async function claim(
  server: TestTarget,
  runnerId: string,
  devices: string[],
  waitMs = 5000,
): Promise<Claimed | null> {
  const { status, body } = await json<{ job: Claimed | null }>(
    server.request('/api/v1/runner/claim', {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { runner_id: runnerId, devices, wait_ms: waitMs },
    }),
  );
  if (status !== 200) throw new Error(`claim: ${status}`);
  return body.job;
}

export function postResult(server: TestTarget, runnerId: string, job: Claimed, body: Record<string, unknown>) {
  return json(
    server.request(`/api/v1/runner/jobs/${job.job_id}/result`, {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { runner_id: runnerId, lease_token: job.lease_token, ...body },
    }),
  );
}

export interface SseMessage {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/**
 * Reads an SSE response until `until` says stop (or the timeout), parsing `id:`/`event:`/`data:` lines
 * by the EventSource rules; comment lines (keep-alives) are skipped.
 */
export async function readSse(
  res: Response,
  until: (m: SseMessage, all: SseMessage[]) => boolean,
  timeoutMs = 60_000,
): Promise<SseMessage[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const out: SseMessage[] = [];
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return out;
      buffer += decoder.decode(value, { stream: true });
      let cut = buffer.indexOf('\n\n');
      while (cut !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf('\n\n');
        const msg: SseMessage = { id: undefined, event: undefined, data: '' };
        let any = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':') || line === '') continue;
          const [field, ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'id') msg.id = value;
          else if (field === 'event') msg.event = value;
          else if (field === 'data') msg.data += (msg.data ? '\n' : '') + value;
          any = true;
        }
        if (!any) continue;
        out.push(msg);
        if (until(msg, out)) {
          await reader.cancel();
          return out;
        }
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A session on 19_ReLU with the test cpu device, as `user` (201 expected). */
export async function createReluSession(
  server: TestTarget,
  user: TestUser,
  name: string,
  maxAttempts: number,
): Promise<AgentSession> {
  const { status, body } = await json<AgentSession>(
    server.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, name, max_attempts: maxAttempts },
    }),
  );
  if (status !== 201) throw new Error(`creating session ${name}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** How many evaluate jobs are queued. */
export async function queuedEvaluations(server: TestTarget): Promise<number> {
  const rows = await server.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE kind = 'evaluate' AND status = 'queued'`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Waits until attempt `attemptNumber` of a session has its evaluation queued. Tests that check first-come order
 * queue one job at a time with it: on a real Postgres the generation of several sessions runs concurrently, so the
 * order sessions were created in is not the order their jobs arrive in.
 */
export async function waitForQueuedAttempt(
  server: TestTarget,
  sessionId: string,
  attemptNumber: number,
): Promise<void> {
  await waitFor(
    async () => {
      const rows = await server.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM jobs j JOIN generation_attempts a ON a.id::text = j.payload->>'target_id'
         WHERE j.kind = 'evaluate' AND j.status = 'queued' AND a.session_id = $1 AND a.attempt_number = $2`,
        [sessionId, attemptNumber],
      );
      return (rows[0]?.n ?? 0) > 0;
    },
    { what: `attempt #${attemptNumber} of session ${sessionId} queued` },
  );
}
