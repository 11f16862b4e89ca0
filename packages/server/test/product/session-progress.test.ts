// A running session's horizon (GET /agent-session/{id}/progress): its place in the evaluation queue, and estimates.
import type { SessionProgress } from '@kernelforge/sdk';
import { SessionProgress as SessionProgressSchema } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import {
  CPU,
  type Claimed,
  claim,
  createReluSession,
  fakeState,
  json,
  postResult,
  RUNNER_TOKEN,
  registerRunner,
  createProductApp,
  waitForQueuedAttempt,
} from './helpers.js';

let app: TestApp;
let user: TestUser;
let other: TestUser;
let runnerId: string;

beforeAll(async () => {
  app = await createProductApp({ background: true });
  runnerId = await registerRunner(app, [CPU]);
  user = await app.createUser();
  other = await app.createUser();
});
afterAll(() => app?.stop());

async function progress(sessionId: string, token = user.token): Promise<SessionProgress> {
  const { status, body } = await json<SessionProgress>(
    app.request(`/api/v1/agent-session/${sessionId}/progress`, { token }),
  );
  expect(status).toBe(200);
  return SessionProgressSchema.parse(body);
}

const attemptOf = async (job: Claimed) => {
  const rows = await app.ctx.db.query<{ session_id: string; attempt_number: number }>(
    'SELECT session_id, attempt_number FROM generation_attempts WHERE id = $1',
    [job.payload.target_id],
  );
  return `${rows[0]?.session_id}#${rows[0]?.attempt_number}`;
};

test('a waiting attempt sees the evaluations ahead of it and those running, as runners claim them', async () => {
  // Three sessions, each with its first attempt's evaluation queued in turn (first come, first served).
  const sessions = [];
  for (const name of ['first', 'second', 'third']) {
    const s = await createReluSession(app, user, name, 2);
    await waitForQueuedAttempt(app, s.id, 1);
    sessions.push(s);
  }
  const [s1, s2, s3] = sessions as [(typeof sessions)[0], (typeof sessions)[0], (typeof sessions)[0]];

  const third = await progress(s3.id);
  expect(third).toMatchObject({ phase: 'evaluating', queue: { job: 'evaluate', ahead: 2, running: 0 } });
  expect(third.attempt_id).toBe(s3.generation_attempts[0]?.id);
  // Nothing has been evaluated yet: no typical duration, no estimate.
  expect(third).toMatchObject({ estimate_seconds: null, typical_seconds: null, typical_from: null });
  expect((await progress(s1.id)).queue).toEqual({ job: 'evaluate', ahead: 0, running: 0 });

  // A runner takes the first: one fewer ahead, one running; the claimed attempt is no longer waiting.
  const job1 = (await claim(app, runnerId, [CPU.id])) as Claimed;
  expect(await attemptOf(job1)).toBe(`${s1.id}#1`);
  expect((await progress(s3.id)).queue).toEqual({ job: 'evaluate', ahead: 1, running: 1 });
  const running = await progress(s1.id);
  expect(running).toMatchObject({ phase: 'evaluating', queue: null, estimate_seconds: null });
  expect(running.phase_elapsed_seconds).toBeGreaterThanOrEqual(0);

  // Its result comes back; the session's next attempt (a later one: lower priority) queues behind the other two.
  await new Promise((r) => setTimeout(r, 300));
  await postResult(app, runnerId, job1, { evaluation_state: fakeState('benchmark', 2) });
  await waitForQueuedAttempt(app, s1.id, 2);
  const later = await progress(s1.id);
  expect(later.queue).toEqual({ job: 'evaluate', ahead: 2, running: 0 });
  // The first evaluation's duration is now this session's typical one (a median, in seconds, never negative).
  expect(later.typical_from).toBe('session');
  expect(later.typical_seconds).toBeGreaterThan(0);
  expect(later.estimate_seconds).toBeNull();
  expect((await progress(s3.id)).queue).toEqual({ job: 'evaluate', ahead: 1, running: 0 });

  const job2 = (await claim(app, runnerId, [CPU.id])) as Claimed;
  expect(await attemptOf(job2)).toBe(`${s2.id}#1`);
  expect((await progress(s3.id)).queue).toEqual({ job: 'evaluate', ahead: 0, running: 1 });
  expect((await progress(s1.id)).queue).toEqual({ job: 'evaluate', ahead: 1, running: 1 });

  // A new session on the same problem and device borrows the owner's earlier durations.
  const fourth = await createReluSession(app, user, 'fourth', 1);
  await waitForQueuedAttempt(app, fourth.id, 1);
  const borrowed = await progress(fourth.id);
  expect(borrowed.typical_from).toBe('problem');
  expect(borrowed.typical_seconds).toBe(later.typical_seconds);

  // Once running, the estimate is the typical duration less the time run so far, floored at zero.
  const job3 = (await claim(app, runnerId, [CPU.id])) as Claimed;
  expect(await attemptOf(job3)).toBe(`${s3.id}#1`);
  await postResult(app, runnerId, job2, { evaluation_state: fakeState('benchmark', 2) });
  const job4 = (await claim(app, runnerId, [CPU.id])) as Claimed;
  expect(await attemptOf(job4)).toBe(`${fourth.id}#1`);
  const estimated = await progress(fourth.id);
  expect(estimated.queue).toBeNull();
  expect(estimated.estimate_seconds).not.toBeNull();
  expect(estimated.estimate_seconds).toBeGreaterThanOrEqual(0);
  expect(estimated.estimate_seconds).toBeLessThanOrEqual(estimated.typical_seconds as number);
});

test("another user gets the session route's 404; a superuser sees it; a stopped session has no progress", async () => {
  const s = await createReluSession(app, user, 'private', 1);
  const denied = await json(app.request(`/api/v1/agent-session/${s.id}/progress`, { token: other.token }));
  expect(denied).toEqual({ status: 404, body: { detail: 'Session not found' } });
  const bad = await json(app.request('/api/v1/agent-session/not-a-uuid/progress', { token: user.token }));
  expect(bad).toEqual({ status: 404, body: { detail: 'Session not found' } });
  expect((await json(app.request(`/api/v1/agent-session/${s.id}/progress`))).status).toBe(401);
  expect((await progress(s.id, app.admin.token)).attempt_id).toBe(s.generation_attempts[0]?.id);

  await json(app.request(`/api/v1/agent-session/${s.id}/stop`, { method: 'POST', token: user.token }));
  expect(await progress(s.id)).toEqual({
    attempt_id: null,
    phase: null,
    queue: null,
    phase_elapsed_seconds: null,
    estimate_seconds: null,
    typical_seconds: null,
    typical_from: null,
    evaluation: null,
    notice: null,
  });
});

/** Claims evaluate jobs until the one of `sessionId`'s first attempt comes (earlier tests leave others queued). */
async function claimFor(sessionId: string): Promise<Claimed> {
  for (let i = 0; i < 20; i++) {
    const job = (await claim(app, runnerId, [CPU.id])) as Claimed | null;
    if (!job) break;
    if ((await attemptOf(job)) === `${sessionId}#1`) return job;
  }
  throw new Error(`no evaluate job for ${sessionId}`);
}

const beat = (job: Claimed, extra: Record<string, unknown>) =>
  json<{ lease_expires_at?: string; detail?: Array<{ loc: unknown[]; msg: string; type: string }> }>(
    app.request(`/api/v1/runner/jobs/${job.job_id}/heartbeat`, {
      method: 'POST',
      token: RUNNER_TOKEN,
      json: { runner_id: runnerId, lease_token: job.lease_token, ...extra },
    }),
  );

test("a heartbeat's progress is stored on the job and shown as the evaluation's stage, case and samples", async () => {
  const s = await createReluSession(app, user, 'live', 1);
  await waitForQueuedAttempt(app, s.id, 1);
  // Queued: nothing is evaluating yet.
  expect((await progress(s.id)).evaluation).toBeNull();
  const job = await claimFor(s.id);
  // Leased, before the runner's first report: the phase, no evaluation detail.
  expect(await progress(s.id)).toMatchObject({ phase: 'evaluating', evaluation: null });

  const compiling = { stage: 'compiling', case_index: 0, case_count: 0, samples: 0 };
  expect((await beat(job, { progress: compiling })).status).toBe(200);
  expect((await progress(s.id)).evaluation).toEqual(compiling);
  const timing = { stage: 'timing', case_index: 1, case_count: 2, samples: 37 };
  expect((await beat(job, { progress: timing })).status).toBe(200);
  expect((await progress(s.id)).evaluation).toEqual(timing);
  // A plain heartbeat keeps the last progress.
  expect((await beat(job, {})).status).toBe(200);
  expect((await progress(s.id)).evaluation).toEqual(timing);
  const rows = await app.ctx.db.query<{ progress: unknown }>('SELECT progress FROM jobs WHERE id = $1', [job.job_id]);
  const stored = typeof rows[0]?.progress === 'string' ? JSON.parse(rows[0].progress) : rows[0]?.progress;
  expect(stored).toEqual(timing);

  // The result ends the lease and clears the progress.
  await postResult(app, runnerId, job, { evaluation_state: fakeState('benchmark', 2) });
  const after = await app.ctx.db.query<{ progress: unknown }>('SELECT progress FROM jobs WHERE id = $1', [job.job_id]);
  expect(after[0]?.progress ?? null).toBeNull();
  expect((await progress(s.id)).evaluation ?? null).toBeNull();
});

test('a heartbeat with a bad progress gets a 422 that says which field, and changes nothing', async () => {
  const s = await createReluSession(app, user, 'bad beats', 1);
  await waitForQueuedAttempt(app, s.id, 1);
  const job = await claimFor(s.id);
  const good = { stage: 'correctness', case_index: 3, case_count: 30, samples: 0 };
  expect((await beat(job, { progress: good })).status).toBe(200);
  const bad: Array<[unknown, string]> = [
    [{ ...good, stage: 'judging' }, 'stage'],
    [{ ...good, case_index: -1 }, 'case_index'],
    [{ ...good, case_index: 1.5 }, 'case_index'],
    [{ ...good, case_index: 31 }, 'case_index'],
    [{ ...good, case_count: 10_001 }, 'case_count'],
    [{ ...good, samples: 10_000_001 }, 'samples'],
    [{ ...good, samples: '37' }, 'samples'],
    [{ stage: 'timing' }, 'case_index'],
    ['timing case 1 of 2', 'progress'],
  ];
  for (const [value, field] of bad) {
    const r = await beat(job, { progress: value });
    expect(r.status, JSON.stringify(value)).toBe(422);
    const issue = r.body.detail?.[0];
    expect(issue?.loc.slice(0, 2)).toEqual(['body', 'progress']);
    if (field !== 'progress') expect(issue?.loc.at(-1)).toBe(field);
    expect(issue?.msg).toBeTruthy();
  }
  expect((await progress(s.id)).evaluation).toEqual(good);
});

test("a runner's waits (the timing lock, then quiet) are stored with their start, holder and bound; older reports still do", async () => {
  const s = await createReluSession(app, user, 'waits', 1);
  await waitForQueuedAttempt(app, s.id, 1);
  const job = await claimFor(s.id);
  // An older runner's report, without a wait: taken as before.
  const checking = { stage: 'correctness', case_index: 5, case_count: 5, samples: 0 };
  expect((await beat(job, { progress: checking })).status).toBe(200);
  expect((await progress(s.id)).evaluation).toEqual(checking);

  const since = new Date(Date.now() - 45_000).toISOString();
  const until = new Date(Date.now() + 20_000).toISOString();
  const lock = {
    stage: 'lock',
    case_index: 0,
    case_count: 2,
    samples: 0,
    wait: { since, max_seconds: 120, holder: 'held by a ranked evaluation, timing case 2 of 5', holder_until: until },
  };
  expect((await beat(job, { progress: lock })).status).toBe(200);
  expect((await progress(s.id)).evaluation).toEqual(lock);
  const quiet = {
    stage: 'quiet',
    case_index: 0,
    case_count: 0,
    samples: 0,
    wait: { since, max_seconds: 60, busy_cores: 1.6, cores: 2, quiet_below: 0.5 },
  };
  expect((await beat(job, { progress: quiet })).status).toBe(200);
  expect((await progress(s.id)).evaluation).toEqual(quiet);

  // A wait that is not one is refused, naming the field, and changes nothing.
  for (const [wait, field] of [
    [{ ...quiet.wait, max_seconds: -1 }, 'max_seconds'],
    [{ ...quiet.wait, busy_cores: 'many' }, 'busy_cores'],
    [{ ...lock.wait, holder: 'x'.repeat(201) }, 'holder'],
    [{ max_seconds: 60 }, 'since'],
  ] as const) {
    const r = await beat(job, { progress: { ...quiet, wait } });
    expect(r.status, JSON.stringify(wait)).toBe(422);
    expect(r.body.detail?.[0]?.loc.at(-1)).toBe(field);
  }
  expect((await progress(s.id)).evaluation).toEqual(quiet);
});
