// Two real replicas on a Postgres server of this test's own, which it restarts under them (pg_ctl stop -m fast,
// then start): while it is down both say 503 on /readyz with a detail; once they say 200 again, both serve session
// events over SSE and both run agents (each replica's one agent worker generates an attempt), and each logged the
// outage in two lines (lost, back) instead of a stack trace per failed poll.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres, type ThrowawayPostgres } from '../../../../scripts/postgres.mjs';
import { type ServerProcess, startServerProcess } from '../helpers/process.js';
import { CPU, readSse, waitFor } from '../product/helpers.js';

// Runs in the Postgres pass (scripts/test-passes.mjs), on a server of its own: restarting the shared one would cut
// every other file's connections.
const pgPass = process.env.KFORGE_TEST_DATABASE_URL;
const RUNNER_TOKEN = `runner-${randomBytes(12).toString('hex')}`;
const ADMIN = { email: 'admin@kforge.test', password: `pw-${randomBytes(9).toString('base64url')}` };
const RELU =
  '```c\n#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) {\n  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;\n}\n```\nA ReLU.';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * An OpenAI-style provider that answers nobody until `quorum` requests wait at once: with one agent worker per
 * replica, two generations in flight together are one on each replica.
 */
class BarrierLlm {
  url = '';
  private waiting: ServerResponse[] = [];
  private released = false;
  served = 0;
  private server: Server | null = null;
  constructor(private readonly quorum: number) {}

  async start(): Promise<void> {
    const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      for await (const _ of req) {
        // The prompt is not needed.
      }
      this.waiting.push(res);
      this.flush();
    });
    this.server = server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Requests waiting for an answer now. */
  get pending(): number {
    return this.waiting.length;
  }

  /** From now on, answer as soon as the quorum waits. */
  release(): void {
    this.released = true;
    this.flush();
  }

  private flush(): void {
    if (!this.released || this.waiting.length < this.quorum) return;
    for (const r of this.waiting.splice(0)) this.answer(r);
  }

  private answer(res: ServerResponse): void {
    this.served += 1;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: RELU } }] })}\n\n`);
    res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 1 } })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  async stop(): Promise<void> {
    for (const r of this.waiting.splice(0)) r.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

async function replica(databaseUrl: string, secret: string, llmUrl: string): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kforge-replica-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = await startServerProcess({
    DATABASE_URL: databaseUrl,
    KFORGE_DATA_DIR: dataDir,
    KFORGE_SECRET: secret,
    KFORGE_RUNNER_TOKEN: RUNNER_TOKEN,
    KFORGE_LOCAL_RUNNER: '0',
    KFORGE_ADMIN_EMAIL: ADMIN.email,
    KFORGE_ADMIN_PASSWORD: ADMIN.password,
    KFORGE_GENERATE_WORKERS: '1',
    KFORGE_LLM_PROVIDER: 'openai',
    KFORGE_LLM_BASE_URL: `${llmUrl}/v1`,
    KFORGE_LLM_MODEL: 'local-model',
    KFORGE_REAPER_INTERVAL_MS: '300',
    KFORGE_ACCESS_LOG: '0',
  });
  cleanups.push(() => server.stop());
  return server;
}

const ready = async (s: ServerProcess) => {
  let r: Response;
  try {
    r = await fetch(`${s.url}/readyz`);
  } catch (err) {
    // Say which replica, why, and whether it is still alive, with its log: "fetch failed" alone explains nothing.
    const state =
      s.child.exitCode !== null || s.child.signalCode !== null
        ? `exited (${s.child.exitCode ?? s.child.signalCode})`
        : 'running';
    throw new Error(
      `GET ${s.url}/readyz: ${String((err as Error).cause ?? err)}; the replica is ${state}\n${s.log().slice(-6000)}`,
    );
  }
  return { status: r.status, body: (await r.json()) as { status?: string; detail?: string } };
};

describe.skipIf(!pgPass)('a Postgres restart under two live replicas', () => {
  it('answers 503 while it is down, then both replicas serve events and run agents again', async () => {
    let postgres: ThrowawayPostgres | undefined = await startPostgres();
    cleanups.push(() => {
      try {
        postgres?.stop();
      } catch {
        // Already down (a failure while it was): its files are removed all the same.
      }
    });
    const llm = new BarrierLlm(2);
    await llm.start();
    cleanups.push(() => llm.stop());
    const secret = randomBytes(32).toString('hex');
    const a = await replica(postgres.url, secret, llm.url);
    const b = await replica(postgres.url, secret, llm.url);
    const servers = [a, b];
    const logs = () => servers.map((s, i) => `--- replica ${'AB'[i]}\n${s.log().slice(-4000)}`).join('\n');

    const login = await fetch(`${a.url}/auth/login/access-token`, {
      method: 'POST',
      body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
    });
    const token = ((await login.json()) as { access_token: string }).access_token;
    const call = (s: ServerProcess, path: string, init: RequestInit = {}) =>
      fetch(`${s.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    // A stand-in runner announces the device the sessions are for (no one evaluates: generation is what is tested).
    const registered = await fetch(`${a.url}/api/v1/runner/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'stand-in', devices: [CPU] }),
    });
    expect(registered.status).toBe(200);
    for (const s of servers) expect((await ready(s)).status).toBe(200);
    // Both replicas' LISTEN connections are open before the restart (the agent workers' idle waits open them).
    await new Promise((r) => setTimeout(r, 1500));

    // The restart: down, both replicas notice and say so; then up again.
    postgres.down();
    for (const s of servers) {
      const down = await waitFor(
        async () => {
          const r = await ready(s);
          return r.status === 503 ? r : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 100, what: `${s.url} to say it is not ready` },
      );
      expect(down.body.detail).toMatch(/Database out of reach since \d\d:\d\d:\d\d UTC|Database unavailable/);
    }
    // Long enough for each agent worker's idle poll to fail many times (the old code logged each one with its stack).
    await new Promise((r) => setTimeout(r, 4000));
    for (const s of servers) {
      const r = await ready(s);
      expect(r.status).toBe(503);
      expect(r.body.detail).toMatch(/Database out of reach since \d\d:\d\d:\d\d UTC \(.+\); reconnecting/);
    }
    postgres.up();
    const restarted = Date.now();
    for (const s of servers)
      await waitFor(async () => (await ready(s)).status === 200, {
        timeoutMs: 30_000,
        intervalMs: 100,
        what: `${s.url} to be ready again`,
      });
    const readyAfterMs = Date.now() - restarted;

    // Ready again: each replica streams the events of both sessions (each made through the other replica), and the
    // two generations run at once, one on each replica's only agent worker.
    const create = async (s: ServerProcess, name: string) => {
      const r = await call(s, '/api/v1/agent-session', {
        method: 'POST',
        body: JSON.stringify({
          problem_name: '19_ReLU',
          device: CPU.id,
          name,
          agent: { provider: 'openai' },
          max_attempts: 1,
        }),
      });
      expect(r.status, logs()).toBe(201);
      return ((await r.json()) as { id: string }).id;
    };
    const s1 = await create(a, 'after-restart-1');
    const s2 = await create(b, 'after-restart-2');
    const evaluating = (m: { event?: string | undefined; data: string }) =>
      m.event === 'attempt.updated' &&
      (JSON.parse(m.data) as { attempt: { status: string } }).attempt.status === 'evaluating';
    // Streams opened from the latest event on: what they get comes live, through each replica's LISTEN.
    const opened = await Promise.all(
      [
        [b, s1],
        [a, s2],
      ].map(async ([s, id]) => {
        const res = await call(s as ServerProcess, `/api/v1/agent-session/${id}/events`);
        expect(res.status).toBe(200);
        return res;
      }),
    );
    const streams = Promise.all(opened.map((res) => readSse(res, evaluating, 45_000)));
    // Both generations wait on the provider at once (one worker per replica), then it answers them.
    await waitFor(async () => llm.pending === 2, { timeoutMs: 30_000, what: `both agent workers to call\n${logs()}` });
    await new Promise((r) => setTimeout(r, 300));
    llm.release();
    for (const events of await streams)
      expect(events.some(evaluating), `${JSON.stringify(events)}\n${logs()}`).toBe(true);
    expect(llm.served).toBe(2);

    // Which worker generated each attempt: one of each replica's.
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      const jobs = await client.query<{ runner_id: string; status: string; attempts: number }>(
        `SELECT runner_id, status, attempts FROM jobs WHERE kind = 'generate' ORDER BY created_at`,
      );
      expect(jobs.rows.map((j) => [j.status, j.attempts])).toEqual([
        ['done', 1],
        ['done', 1],
      ]);
      const pids = jobs.rows.map((j) => Number(/:(\d+)\/generate-\d+$/.exec(j.runner_id)?.[1])).sort();
      expect(pids).toEqual([a.child.pid, b.child.pid].sort());
    } finally {
      await client.end();
    }

    // Each replica: one line when the database went, one summary when it came back, and no stack trace.
    for (const s of servers) {
      const lines = s
        .log()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; level: string; errors_while_down?: Record<string, number> });
      expect(lines.filter((l) => l.msg.startsWith('database connection lost')).length, s.log()).toBe(1);
      const back = lines.filter((l) => l.msg === 'database connection back');
      expect(back.length, s.log()).toBe(1);
      expect(Object.keys(back[0]?.errors_while_down ?? {}).length).toBeGreaterThan(0);
      expect(s.log()).not.toContain('"stack"');
      expect(s.log().length).toBeLessThan(20_000);
    }
    console.log(`ready again ${readyAfterMs} ms after Postgres started`);
    await Promise.all(servers.map((s) => s.stop()));
    postgres.stop();
    postgres = undefined;
  }, 120_000);
});
