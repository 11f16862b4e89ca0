// Leases: a job whose runner vanished runs again after its lease expires; out of tries it is dead-lettered with its reason.
import type { AgentSession, Submission } from '@kernelforge/sdk';
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
  RUNNER_TOKEN,
  createProductApp,
  waitFor,
} from './helpers.js';

let app: TestApp;
let user: TestUser;
let runnerA: string;
let runnerB: string;

beforeAll(async () => {
  app = await createProductApp({
    background: true,
    env: { KFORGE_JOB_LEASE_SECONDS: '1', KFORGE_REAPER_INTERVAL_MS: '150', KFORGE_JOB_MAX_TRIES: '2' },
  });
  runnerA = await registerRunner(app, [CPU, CPU_B], 'runner-a');
  runnerB = await registerRunner(app, [CPU, CPU_B], 'runner-b');
  user = await app.createUser();
});
afterAll(() => app?.stop());

const submit = async () =>
  (
    await json<Submission>(
      app.request('/api/v1/submission', {
        method: 'POST',
        token: user.token,
        json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: 'void solution(){}' },
      }),
    )
  ).body;

test('a job leased by a runner that vanished runs again once its lease expires', async () => {
  const submission = await submit();
  const first = await claim(app, runnerA, [CPU_B.id]);
  expect(first?.payload.target_id).toBe(submission.id);
  // Runner A goes silent: no heartbeat. After the lease runs out the reaper requeues the job for runner B.
  const second = await claim(app, runnerB, [CPU_B.id], 5000);
  expect(second?.job_id).toBe(first?.job_id);
  expect(second?.lease_token).not.toBe(first?.lease_token);
  const late = await json(
    app.request(`/api/v1/runner/jobs/${first?.job_id}/heartbeat`, {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { runner_id: runnerA, lease_token: first?.lease_token },
    }),
  );
  expect(late.status).toBe(409);
  expect(
    (
      await postResult(app, runnerA, first as NonNullable<typeof first>, {
        evaluation_state: fakeState('ranked', 1),
      })
    ).status,
  ).toBe(409);
  const beat = await json<{ lease_expires_at: string }>(
    app.request(`/api/v1/runner/jobs/${second?.job_id}/heartbeat`, {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { runner_id: runnerB, lease_token: second?.lease_token },
    }),
  );
  expect(beat.status).toBe(200);
  expect(Date.parse(beat.body.lease_expires_at)).toBeGreaterThan(Date.now());
  expect(
    (
      await postResult(app, runnerB, second as NonNullable<typeof second>, {
        evaluation_state: fakeState('ranked', 1.5),
      })
    ).status,
  ).toBe(200);
  const detail = await json<any>(app.request(`/api/v1/leaderboard/submission/${submission.id}`, { token: user.token }));
  expect(detail.body).toMatchObject({ status: 'completed', verdict: 'accepted', time_ms: 1.5 });
});

test('a job out of tries is dead-lettered and its submission fails with the reason', async () => {
  const submission = await submit();
  for (let i = 0; i < 2; i++) {
    const job = await claim(app, runnerA, [CPU_B.id], 5000);
    expect(job?.payload.target_id).toBe(submission.id);
  }
  const failed = await waitFor(
    async () => {
      const r = await json<any>(app.request(`/api/v1/leaderboard/submission/${submission.id}`, { token: user.token }));
      return r.body.status === 'failed' ? r.body : undefined;
    },
    { timeoutMs: 10_000, what: 'the submission to fail' },
  );
  expect(failed.error).toContain('stopped responding');
  const job = await app.ctx.db.query<{ status: string; dead_reason: string }>(
    `SELECT status, dead_reason FROM jobs WHERE payload->>'target_id' = $1`,
    [submission.id],
  );
  expect(job[0]).toMatchObject({ status: 'dead' });
});

test('a runner error is retried, then a dead evaluate job marks its attempt failed and the instruction goes on', async () => {
  const created = await json<AgentSession>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, max_attempts: 2 },
    }),
  );
  const id = created.body.id;
  for (let i = 0; i < 2; i++) {
    const job = await claim(app, runnerA, [CPU.id], 20_000);
    expect(job?.payload).toMatchObject({ kind: 'attempt', mode: 'benchmark' });
    expect((await postResult(app, runnerA, job as NonNullable<typeof job>, { error: 'sandbox exploded' })).status).toBe(
      200,
    );
  }
  const s = await waitFor(
    async () => {
      const s = await getSession(app, user.token, id);
      return s.generation_attempts[0]?.status === 'failed' && s.generation_attempts.length === 2 ? s : undefined;
    },
    { timeoutMs: 20_000, what: 'attempt 1 to fail and attempt 2 to be queued' },
  );
  expect(s.generation_attempts[0]?.error).toContain('sandbox exploded');
});
