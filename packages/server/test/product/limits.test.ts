// Limits a user meets: daily quotas (429 with Retry-After), a session's attempts budget, and SSE keep-alives.
import type { AgentSession } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import {
  CPU,
  CPU_B,
  claim,
  fakeState,
  getSession,
  json,
  postResult,
  registerRunner,
  createProductApp,
  waitFor,
} from './helpers.js';

let app: TestApp;
let runnerId: string;

beforeAll(async () => {
  app = await createProductApp({
    background: true,
    env: {
      KFORGE_DAILY_SESSIONS: '1',
      KFORGE_DAILY_SUBMISSIONS: '1',
      KFORGE_DAILY_ATTEMPTS: '3',
      KFORGE_SESSION_MAX_ATTEMPTS: '2',
      KFORGE_SSE_KEEPALIVE_MS: '100',
    },
  });
  runnerId = await registerRunner(app, [CPU, CPU_B]);
});
afterAll(() => app?.stop());

const createSession = (user: TestUser, body: Record<string, unknown> = {}) =>
  json<AgentSession & { detail?: string }>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, max_attempts: 5, ...body },
    }),
  );

const retryAfterOf = async (res: Response) => {
  expect(res.status).toBe(429);
  const seconds = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(seconds)).toBe(true);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(86_400);
  return { seconds, detail: ((await res.json()) as { detail: string }).detail };
};

test('a session stops at its attempts budget: no attempt past it, the instruction completes, the session idles', async () => {
  const user = await app.createUser();
  const created = await createSession(user);
  expect(created.status).toBe(201);
  const id = created.body.id;
  // The stand-in runner accepts every attempt; the instruction would go on to 5 but the budget is 2.
  const idle = await waitFor(
    async () => {
      const job = await claim(app, runnerId, [CPU.id], 500);
      if (job) await postResult(app, runnerId, job, { evaluation_state: fakeState('benchmark', 3) });
      const s = await getSession(app, user.token, id);
      return s.status === 'idle' ? s : undefined;
    },
    { what: 'the session to reach its budget' },
  );
  expect(idle.generation_attempts.map((a) => [a.attempt_number, a.status])).toEqual([
    [1, 'completed'],
    [2, 'completed'],
  ]);
  expect(idle.user_instructions[0]?.status).toBe('completed');
  expect(await claim(app, runnerId, [CPU.id], 300)).toBeNull();
  expect((await getSession(app, user.token, id)).generation_attempts).toHaveLength(2);
});

test('the daily session quota answers 429 with Retry-After', async () => {
  const user = await app.createUser();
  expect((await createSession(user)).status).toBe(201);
  const res = await app.request('/api/v1/agent-session', {
    method: 'POST',
    token: user.token,
    json: { problem_name: '19_ReLU', device: CPU.id },
  });
  const { detail } = await retryAfterOf(res);
  expect(detail).toBe('Daily limit of 1 sessions reached');
  // Someone else's quota is their own.
  expect((await createSession(await app.createUser())).status).toBe(201);
});

test('the daily submission quota answers 429 with Retry-After', async () => {
  const user = await app.createUser();
  const submit = () =>
    app.request('/api/v1/submission', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: 'void solution(){}' },
    });
  expect((await submit()).status).toBe(201);
  const { detail } = await retryAfterOf(await submit());
  expect(detail).toBe('Daily limit of 1 submissions reached');
});

test('the daily attempts quota refuses a new round with 429 and Retry-After', async () => {
  const user = await app.createUser();
  const created = await createSession(user);
  expect(created.status).toBe(201);
  const more = (instruction: string) =>
    app.request(`/api/v1/agent-session/${created.body.id}/attempt`, {
      method: 'POST',
      token: user.token,
      json: { instruction, max_attempts: 1 },
    });
  // Attempts 2 and 3 fit in the quota of 3; the fourth round is refused before anything is queued.
  expect((await more('tile for L1')).status).toBe(201);
  expect((await more('unroll by 4')).status).toBe(201);
  const { detail } = await retryAfterOf(await more('use AVX-512'));
  expect(detail).toBe('Daily limit of 3 attempts reached');
  expect((await getSession(app, user.token, created.body.id)).user_instructions).toHaveLength(3);
});

test('an idle SSE stream gets keep-alive comments at the configured interval', async () => {
  const user = await app.createUser();
  const created = await createSession(user);
  const res = await app.request(`/api/v1/agent-session/${created.body.id}/events`, { token: user.token });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 5000;
  while ((text.match(/^: keep-alive$/gm) ?? []).length < 3 && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel();
  expect(text.startsWith(': connected\n\n')).toBe(true);
  expect((text.match(/^: keep-alive$/gm) ?? []).length).toBeGreaterThanOrEqual(3);
});
