// The session lifecycle (domain/sessions/lifecycle.ts) publishes one `session.status` per change and none without one;
// a stop cancels the attempts' jobs through the job owner (jobs/queue.ts); a lapsed lease sends a submission back to queued.
import type { AgentSession, Submission } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { reapExpiredLeases } from '../../src/jobs/queue.js';
import { settleRequeuedJobs } from '../../src/domain/evaluation/results.js';
import { canTransitionSubmission } from '../../src/domain/submissions/lifecycle.js';
import { canTransitionSession, markSessionIdle } from '../../src/domain/sessions/lifecycle.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import { CPU, CPU_B, claim, json, registerRunner, createProductApp } from './helpers.js';

let app: TestApp;
let user: TestUser;
let runnerId: string;

beforeAll(async () => {
  // No background work: nothing but this test moves sessions and jobs.
  app = await createProductApp();
  runnerId = await registerRunner(app, [CPU, CPU_B]);
  user = await app.createUser();
});
afterAll(() => app?.stop());

const req = <T>(path: string, init: Parameters<TestApp['request']>[1] = {}) =>
  json<T>(app.request(`/api/v1${path}`, { token: user.token, ...init }));

/** The `session.status` events stored for a session, oldest first. */
async function statusEvents(sessionId: string): Promise<string[]> {
  const rows = await app.ctx.db.query<{ payload: { type: string; status?: string } }>(
    'SELECT payload FROM session_events WHERE session_id = $1 ORDER BY id',
    [sessionId],
  );
  return rows.filter((r) => r.payload.type === 'session.status').map((r) => r.payload.status as string);
}

async function jobStatuses(sessionId: string): Promise<string[]> {
  const rows = await app.ctx.db.query<{ status: string }>(
    'SELECT status FROM jobs WHERE session_id = $1 ORDER BY created_at',
    [sessionId],
  );
  return rows.map((r) => r.status);
}

test('the session transition table: active <-> idle, stopped from either, resumed only to active', () => {
  expect(canTransitionSession('idle', 'active')).toBe(true);
  expect(canTransitionSession('active', 'idle')).toBe(true);
  expect(canTransitionSession('stopped', 'active')).toBe(true);
  expect(canTransitionSession('active', 'stopped')).toBe(true);
  expect(canTransitionSession('idle', 'stopped')).toBe(true);
  expect(canTransitionSession('stopped', 'idle')).toBe(false);
  for (const s of ['active', 'idle', 'stopped'] as const) expect(canTransitionSession(s, s)).toBe(false);
});

test('the submission transition table: queued <-> evaluating, then completed or failed for good', () => {
  expect(canTransitionSubmission('queued', 'evaluating')).toBe(true);
  expect(canTransitionSubmission('evaluating', 'queued')).toBe(true);
  expect(canTransitionSubmission('evaluating', 'completed')).toBe(true);
  expect(canTransitionSubmission('evaluating', 'failed')).toBe(true);
  for (const final of ['completed', 'failed'])
    for (const to of ['queued', 'evaluating', 'completed', 'failed'] as const)
      expect(canTransitionSubmission(final, to), `${final} -> ${to}`).toBe(false);
});

test('stop, stop again, resume: one session.status event per change, and the jobs of a stop are cancelled', async () => {
  const created = await req<AgentSession>('/agent-session', {
    method: 'POST',
    json: { problem_name: '19_ReLU', device: CPU.id, max_attempts: 1, agent: { provider: 'tuner' } },
  });
  expect(created.status).toBe(201);
  const id = created.body.id;
  expect(created.body.status).toBe('active');
  expect(await jobStatuses(id)).toEqual(['queued']);
  // A live attempt keeps the session active: settling changes nothing and publishes nothing.
  expect(await app.ctx.db.transaction((tx) => markSessionIdle(app.ctx, tx, id))).toBe(false);

  expect((await req<AgentSession>(`/agent-session/${id}/stop`, { method: 'POST' })).body.status).toBe('stopped');
  expect(await jobStatuses(id)).toEqual(['cancelled']);
  expect((await req<AgentSession>(`/agent-session/${id}/stop`, { method: 'POST' })).body.status).toBe('stopped');
  expect(await statusEvents(id)).toEqual(['stopped']);

  const again = await req<{ generation_attempts: { id: string }[] }>(`/agent-session/${id}/attempt`, {
    method: 'POST',
    json: { instruction: 'Try again', max_attempts: 1 },
  });
  expect(again.status).toBe(201);
  expect((await req<AgentSession>(`/agent-session/${id}`)).body.status).toBe('active');
  expect(await statusEvents(id)).toEqual(['stopped', 'active']);
  expect(await jobStatuses(id)).toEqual(['cancelled', 'queued']);
});

test('a lapsed lease sends the job back to the queue and its submission back to queued', async () => {
  const created = await req<Submission>('/submission', {
    method: 'POST',
    json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: 'void solution() {}' },
  });
  expect(created.status).toBe(201);
  const job = await claim(app, runnerId, [CPU_B.id]);
  expect(job?.payload.target_id).toBe(created.body.id);
  const read = async () => (await req<Submission>(`/leaderboard/submission/${created.body.id}`)).body.status;
  expect(await read()).toBe('evaluating');
  // The runner vanished: its lease is past (as the lease reaper finds it after KFORGE_JOB_LEASE_SECONDS).
  await app.ctx.db.query("UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [job?.job_id]);
  const { requeued } = await reapExpiredLeases(app.ctx.db);
  expect(requeued.map((j) => j.id)).toEqual([job?.job_id]);
  await settleRequeuedJobs(app.ctx.db, requeued);
  expect(await read()).toBe('queued');
});
