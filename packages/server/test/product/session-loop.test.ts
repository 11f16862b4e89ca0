// Sessions run end to end: the real tuner agent, the in-process runner on this cpu, live events over SSE.
import { type AgentSession, type GenerationAttempt, SessionEvent } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestServer, TestUser } from '../helpers/server.js';
import { getSession, json, readSse, startProductServer, waitFor } from './helpers.js';

let server: TestServer;
let user: TestUser;
let device: string;

beforeAll(async () => {
  server = await startProductServer({ localRunner: true });
  user = await server.createUser();
  const devices = await json<any>(server.request('/api/v1/devices', { token: user.token }));
  device = devices.body.data.find((d: { kind: string }) => d.kind === 'cpu').id;
});
afterAll(() => server?.stop());

const create = (body: Record<string, unknown>) =>
  json<AgentSession>(
    server.request('/api/v1/agent-session', { method: 'POST', token: user.token, json: { device, ...body } }),
  );

const idle = (id: string, timeoutMs = 150_000) =>
  waitFor(
    async () => {
      const s = await getSession(server, user.token, id);
      return s.status === 'idle' ? s : undefined;
    },
    { timeoutMs, intervalMs: 250, what: `session ${id} to go idle` },
  );

const time = (a: GenerationAttempt) =>
  a.evaluation_state?.benchmarking_result?.optimized_time ?? Number.POSITIVE_INFINITY;

describe('19_ReLU with the tuner on cpu', () => {
  let session: AgentSession;

  test('attempts complete with evaluation results; the best attempt follows the spec rule', async () => {
    const created = await create({ problem_name: '19_ReLU', max_attempts: 3 });
    expect(created.status).toBe(201);
    session = await idle(created.body.id);
    const attempts = session.generation_attempts;
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3]);
    for (const a of attempts) {
      expect(a.status).toBe('completed');
      expect(a.source).toContain('solution');
      expect(a.explanation).toBeTruthy();
      expect(a.evaluation_state?.verdict).toBeTruthy();
      expect(a.runner_seconds).toBeGreaterThan(0);
    }
    expect(attempts.some((a) => a.evaluation_state?.verdict === 'accepted')).toBe(true);
    const lowest = [...attempts]
      .filter((a) => a.status === 'completed')
      .sort((a, b) => time(a) - time(b) || a.attempt_number - b.attempt_number)[0];
    expect(session.best_attempt?.id).toBe(lowest?.id);
    const best = await json<GenerationAttempt>(
      server.request(`/api/v1/agent-session/${session.id}/best-attempt`, { token: user.token }),
    );
    expect(best.body.id).toBe(lowest?.id);
    expect(session.user_instructions[0]?.status).toBe('completed');
  });

  test('a second instruction adds attempts, numbered on from the first', async () => {
    const more = await json<any>(
      server.request(`/api/v1/agent-session/${session.id}/attempt`, {
        method: 'POST',
        token: user.token,
        json: { instruction: 'no OpenMP', max_attempts: 2 },
      }),
    );
    expect(more.status).toBe(201);
    const after = await idle(session.id);
    expect(after.generation_attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4, 5]);
    const second = after.generation_attempts.filter((a) => a.instruction_id === more.body.instruction.id);
    expect(second).toHaveLength(2);
    for (const a of second) expect(a.status).toBe('completed');
  });
});

test('a stopped session keeps its evaluated attempts and queues nothing more', async () => {
  const created = await create({ problem_name: '19_ReLU', max_attempts: 20 });
  await waitFor(
    async () =>
      (await getSession(server, user.token, created.body.id)).generation_attempts.some((a) => a.status === 'completed'),
    { timeoutMs: 120_000, what: 'a first completed attempt' },
  );
  const stopped = await json<AgentSession>(
    server.request(`/api/v1/agent-session/${created.body.id}/stop`, { method: 'POST', token: user.token }),
  );
  expect(stopped.body.status).toBe('stopped');
  const completedAtStop = stopped.body.generation_attempts.filter((a) => a.status === 'completed').map((a) => a.id);
  for (const a of stopped.body.generation_attempts) expect(['completed', 'stopped', 'evaluating']).toContain(a.status);
  // An evaluation a runner already holds may finish; nothing new is started.
  await new Promise((r) => setTimeout(r, 3000));
  const later = await getSession(server, user.token, created.body.id);
  expect(later.status).toBe('stopped');
  expect(later.generation_attempts.length).toBe(stopped.body.generation_attempts.length);
  for (const id of completedAtStop)
    expect(later.generation_attempts.find((a) => a.id === id)?.status).toBe('completed');
  expect(later.generation_attempts.length).toBeLessThan(20);
  const jobs = await server.ctx.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM jobs WHERE session_id = $1 AND (status = 'queued' OR (status = 'leased' AND kind = 'generate'))`,
    [created.body.id],
  );
  expect(jobs[0]?.n).toBe(0);
});

test("SSE delivers the session's events live and resumes after Last-Event-ID", async () => {
  const created = await create({ problem_name: '19_ReLU', max_attempts: 2 });
  const id = created.body.id;
  // EventSource cannot send headers: a single-use ticket rides in the query, never the token; Last-Event-ID 0 replays from the start.
  const ticket = await json<{ ticket: string }>(
    server.request(`/api/v1/agent-session/${id}/events/ticket`, { method: 'POST', token: user.token }),
  );
  const res = await fetch(`${server.url}/api/v1/agent-session/${id}/events?ticket=${ticket.body.ticket}`, {
    headers: { 'Last-Event-ID': '0' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const messages = await readSse(
    res,
    (m) => {
      const e = JSON.parse(m.data) as SessionEvent;
      return e.type === 'session.status' && e.status === 'idle';
    },
    150_000,
  );
  const events = messages.map((m) => JSON.parse(m.data) as SessionEvent);
  const types = new Set(events.map((e) => e.type));
  for (const t of ['attempt.created', 'attempt.updated', 'session.status'] as const) expect(types.has(t)).toBe(true);
  // One event per attempt status change, each carrying the whole attempt: every attempt reads
  // queued -> generating -> evaluating -> completed, no status twice.
  const statuses = new Map<string, string[]>();
  for (const e of events)
    if (e.type === 'attempt.created' || e.type === 'attempt.updated')
      statuses.set(e.attempt.id, [...(statuses.get(e.attempt.id) ?? []), e.attempt.status]);
  // Every message is an event of the sdk's contract (no second, status-only event beside `attempt.updated`).
  expect(messages.filter((m) => !SessionEvent.safeParse(JSON.parse(m.data)).success)).toEqual([]);
  expect([...statuses.values()]).toEqual([
    ['queued', 'generating', 'evaluating', 'completed'],
    ['queued', 'generating', 'evaluating', 'completed'],
  ]);
  const ids = messages.map((m) => Number(m.id));
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  expect(new Set(ids).size).toBe(ids.length);
  expect(messages.every((m) => m.event === (JSON.parse(m.data) as SessionEvent).type)).toBe(true);
  const evaluated = events.filter((e) => e.type === 'attempt.updated' && e.attempt.status === 'completed');
  expect(evaluated).toHaveLength(2);

  // A client that saw up to the middle event gets exactly the rest on reconnect.
  const middle = Math.floor(messages.length / 2);
  const resumed = await fetch(`${server.url}/api/v1/agent-session/${id}/events`, {
    headers: { Authorization: `Bearer ${user.token}`, 'Last-Event-ID': String(messages[middle - 1]?.id) },
  });
  const rest = await readSse(resumed, (_m, all) => all.length >= messages.length - middle, 10_000);
  expect(rest.map((m) => m.id)).toEqual(messages.slice(middle).map((m) => m.id));

  const anonymous = await fetch(`${server.url}/api/v1/agent-session/${id}/events`);
  expect(anonymous.status).toBe(401);
});
