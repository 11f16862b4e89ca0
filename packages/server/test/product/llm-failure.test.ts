// An LLM provider that answers 500 forever: the attempt fails with a readable reason and the session stops trying.
import type { AgentSession } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FakeLlm } from '../agents/helpers/fake-llm.js';
import type { TestApp } from '../helpers/app.js';
import { CPU, getSession, json, registerRunner, createProductApp, waitFor } from './helpers.js';

const llm = new FakeLlm();
let app: TestApp;

beforeAll(async () => {
  await llm.start();
  // With nothing scripted the stand-in answers every request with 500.
  app = await createProductApp({
    background: true,
    env: {
      KFORGE_LLM_PROVIDER: 'openai',
      KFORGE_LLM_BASE_URL: `${llm.url}/v1`,
      KFORGE_LLM_MODEL: 'local-model',
      KFORGE_JOB_MAX_TRIES: '2',
    },
  });
  await registerRunner(app, [CPU]);
});
afterAll(async () => {
  await app?.stop();
  await llm.stop();
});

test('a provider failing with 500 on every try fails the attempt with its reason, and the session goes idle', async () => {
  const user = await app.createUser();
  const created = await json<AgentSession>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, agent: { provider: 'openai' }, max_attempts: 5 },
    }),
  );
  expect(created.status).toBe(201);
  const idle = await waitFor(
    async () => {
      const s = await getSession(app, user.token, created.body.id);
      return s.status === 'idle' ? s : undefined;
    },
    { timeoutMs: 50_000, intervalMs: 200, what: 'the session to give up' },
  );
  // One attempt, failed, saying what the provider answered; no second attempt is burnt on a dead provider.
  expect(idle.generation_attempts).toHaveLength(1);
  const [attempt] = idle.generation_attempts;
  expect(attempt?.status).toBe('failed');
  expect(attempt?.error).toMatch(/^Generation failed: .*answered 500: script exhausted/);
  expect(attempt?.error).toContain('gave up after');
  expect(idle.user_instructions[0]?.status).toBe('completed');

  // Bounded: the provider's tries per job times the job's tries, and nothing more afterwards.
  const seen = llm.seen.length;
  expect(seen).toBeGreaterThanOrEqual(2);
  expect(seen).toBeLessThanOrEqual(3 * 2);
  await new Promise((r) => setTimeout(r, 1500));
  expect(llm.seen.length).toBe(seen);
  expect((await getSession(app, user.token, created.body.id)).generation_attempts).toHaveLength(1);
});

test('a stop reaches the agent while it writes: its request is cut, the attempt stopped, nothing evaluated', async () => {
  llm.reset();
  llm.queue({ kind: 'hang', text: 'Thinking about the loop' });
  const user = await app.createUser();
  const created = await json<AgentSession>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, agent: { provider: 'openai' }, max_attempts: 1 },
    }),
  );
  expect(created.status).toBe(201);
  const id = created.body.id;
  await waitFor(
    async () =>
      llm.seen.length === 1 && (await getSession(app, user.token, id)).generation_attempts[0]?.status === 'generating'
        ? true
        : undefined,
    { timeoutMs: 20_000, intervalMs: 100, what: 'the agent to be writing' },
  );
  const stop = await app.request(`/api/v1/agent-session/${id}/stop`, { method: 'POST', token: user.token });
  expect(stop.status).toBe(200);
  await waitFor(async () => (llm.hangsCut === 1 ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 50,
    what: "the agent's request to be cut",
  });
  const stopped = await getSession(app, user.token, id);
  expect(stopped.generation_attempts.map((a) => a.status)).toEqual(['stopped']);
  // The generate job was cancelled by the stop and nothing was queued for evaluation; no second try was made.
  await new Promise((r) => setTimeout(r, 1500));
  const jobs = await app.ctx.db.query<{ kind: string; status: string }>(
    'SELECT kind, status FROM jobs WHERE session_id = $1',
    [id],
  );
  expect(jobs).toEqual([{ kind: 'generate', status: 'cancelled' }]);
  expect(llm.seen.length).toBe(1);
  expect((await getSession(app, user.token, id)).generation_attempts.map((a) => a.status)).toEqual(['stopped']);
});
