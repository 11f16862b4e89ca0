// Fair share of a shared runner between users: one user's many sessions do not hold it while someone else waits.
import type { AgentSession } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer, TestUser } from '../helpers/server.js';
import { CPU, claim, fakeState, json, postResult, registerRunner, startProductServer, waitFor } from './helpers.js';

let server: TestServer;
let runnerId: string;
let heavy: TestUser;
let light: TestUser;

beforeAll(async () => {
  server = await startProductServer();
  runnerId = await registerRunner(server, [CPU]);
  heavy = await server.createUser();
  light = await server.createUser();
});
afterAll(() => server?.stop());

const createSession = async (user: TestUser, name: string) => {
  const { status, body } = await json<AgentSession>(
    server.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, name, max_attempts: 1 },
    }),
  );
  expect(status).toBe(201);
  return body;
};

const queuedEvaluations = async () =>
  (
    await server.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs WHERE kind = 'evaluate' AND status = 'queued'`,
    )
  ).rows[0]?.n ?? 0;

const sessionOf = async (attemptId: string) =>
  (
    await server.ctx.db.query<{ session_id: string }>('SELECT session_id FROM generation_attempts WHERE id = $1', [
      attemptId,
    ])
  ).rows[0]?.session_id;

test("a user with jobs running waits for another user's job, whatever the queue's age order", async () => {
  const mine = [
    await createSession(heavy, 'heavy-1'),
    await createSession(heavy, 'heavy-2'),
    await createSession(heavy, 'heavy-3'),
  ];
  await waitFor(async () => (await queuedEvaluations()) === 3, { what: "the heavy user's three evaluations queued" });
  const theirs = await createSession(light, 'light-1');
  await waitFor(async () => (await queuedEvaluations()) === 4, { what: "the light user's evaluation queued" });

  // Two runners' worth of claims, each held (not finished) while the next is made.
  const held = [];
  const order: string[] = [];
  for (let i = 0; i < 4; i++) {
    const job = await claim(server, runnerId, [CPU.id], 1000);
    if (!job) throw new Error('queue ran dry');
    held.push(job);
    const session = await sessionOf(job.payload.target_id);
    order.push(session === theirs.id ? 'light' : `heavy-${mine.findIndex((s) => s.id === session) + 1}`);
  }
  // The oldest job first; then the light user's (no job running) before the heavy user's second and third,
  // which were queued earlier; among the heavy user's own jobs, first come first served.
  expect(order).toEqual(['heavy-1', 'light', 'heavy-2', 'heavy-3']);
  for (const job of held) await postResult(server, runnerId, job, { evaluation_state: fakeState('benchmark', 2) });
});
