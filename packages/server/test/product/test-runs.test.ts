// "Run tests" apart from "Submit" (issue 35): POST /api/v1/submission/test evaluates a source in benchmark mode
// (public inputs, never the board's secret seed), never reaches a leaderboard, a review queue or a notice, does not
// use the daily submission quota, and has its own limits (at most 2 unfinished at once, a daily quota) past which it
// is refused with a 429 and a `detail` saying why. The last test evaluates one through the in-process runner.
import type { Leaderboard, Submission, SubmissionDetail, SubmissionProgress } from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestServer, TestUser } from '../helpers/server.js';
import {
  CPU,
  CPU_B,
  type Claimed,
  claim,
  createProductApp,
  createReluSession,
  fakeState,
  json,
  postResult,
  registerRunner,
  startProductServer,
  waitFor,
  waitForQueuedAttempt,
} from './helpers.js';

const RELU = `#include <stddef.h>
void solution(const float *x, float *y, size_t n) {
  for (size_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
`;

describe('test runs through a stand-in runner', () => {
  let app: TestApp;
  let runnerId: string;
  let user: TestUser;
  const body = { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: RELU };

  beforeAll(async () => {
    // One ranked submission a day and three test runs: the test runs use none of the former.
    app = await createProductApp({ env: { KFORGE_DAILY_SUBMISSIONS: '1', KFORGE_DAILY_TEST_RUNS: '3' } });
    runnerId = await registerRunner(app, [CPU_B]);
    user = await app.createUser({ full_name: 'Tester' });
  });
  afterAll(() => app?.stop());

  test('a test run is benchmarked without the secret seed, shown to its owner, never on a leaderboard', async () => {
    const created = await json<Submission>(
      app.request('/api/v1/submission/test', { method: 'POST', token: user.token, json: body }),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ purpose: 'test', status: 'queued' });
    const job = await claim(app, runnerId, [CPU_B.id]);
    expect(job?.payload).toMatchObject({ kind: 'submission', target_id: created.body.id, mode: 'benchmark' });
    expect(job?.payload.secret_seed).toBeUndefined();
    const state = fakeState('benchmark', 1.5);
    // Even a result a ranked run would flag is not reviewed: a test run is never ranked.
    Object.assign(state.benchmarking_result as object, { flagged_for_review: true, review_reasons: ['over 10x'] });
    expect((await postResult(app, runnerId, job as NonNullable<typeof job>, { evaluation_state: state })).status).toBe(
      200,
    );

    const detail = await json<SubmissionDetail>(
      app.request(`/api/v1/leaderboard/submission/${created.body.id}`, { token: user.token }),
    );
    expect(detail.body).toMatchObject({ purpose: 'test', status: 'completed', verdict: 'accepted', rank: null });
    expect(detail.body.evaluation_state).toMatchObject({ mode: 'benchmark', stdout: 'candidate output' });
    expect(detail.body.evaluation_state?.correctness?.cases[0]?.sizes).toEqual({ n: 123457 });

    const board = await json<Leaderboard>(app.request('/api/v1/leaderboard/19_ReLU', { token: user.token }));
    expect(board.body.entries).toEqual([]);
    // Nobody else reads a test run, accepted or not.
    const other = await app.createUser({ full_name: 'Other' });
    expect(
      (await app.request(`/api/v1/leaderboard/submission/${created.body.id}`, { token: other.token })).status,
    ).toBe(404);
    // No review, no notice.
    const admin = await app.createUser({ full_name: 'Reviewer', is_superuser: true });
    const reviews = await json<{ count: number }>(app.request('/api/v1/admin/reviews', { token: admin.token }));
    expect(reviews).toMatchObject({ status: 200, body: { count: 0 } });
    const notices = await json<{ data: unknown[] }>(app.request('/api/v1/users/me/notices', { token: user.token }));
    expect(notices).toMatchObject({ status: 200, body: { data: [] } });

    // Listed apart: "my submissions" by default are the ranked ones; ?purpose=test lists the test runs.
    const mine = await json<{ data: Submission[] }>(app.request('/api/v1/submission', { token: user.token }));
    expect(mine.body.data).toEqual([]);
    const tests = await json<{ data: Submission[]; count: number }>(
      app.request('/api/v1/submission?purpose=test', { token: user.token }),
    );
    expect(tests.body.data.map((s) => s.id)).toEqual([created.body.id]);
  });

  test('at most 2 unfinished at once and a daily quota, each a 429 with a detail; submissions unaffected', async () => {
    const a = await app.request('/api/v1/submission/test', { method: 'POST', token: user.token, json: body });
    const b = await app.request('/api/v1/submission/test', { method: 'POST', token: user.token, json: body });
    expect([a.status, b.status]).toEqual([201, 201]);
    const third = await json<{ detail: string }>(
      app.request('/api/v1/submission/test', { method: 'POST', token: user.token, json: body }),
    );
    expect(third.status).toBe(429);
    expect(third.body.detail).toBe('2 test runs are still running (at most 2 at once): wait for one to finish');

    // Finish one: the daily quota of 3 (the first test's run included) is now reached.
    const job = await claim(app, runnerId, [CPU_B.id]);
    await postResult(app, runnerId, job as NonNullable<typeof job>, { evaluation_state: fakeState('benchmark', null) });
    const past = await json<{ detail: string }>(
      app.request('/api/v1/submission/test', { method: 'POST', token: user.token, json: body }),
    );
    expect(past.status).toBe(429);
    expect(past.body.detail).toBe('Daily limit of 3 test runs reached');

    // The one ranked submission of the day is still there, and it is ranked.
    const submitted = await json<Submission>(
      app.request('/api/v1/submission', { method: 'POST', token: user.token, json: body }),
    );
    expect(submitted.status).toBe(201);
    expect(submitted.body.purpose).toBe('submit');
    const rankedJob = await waitFor(
      async () => {
        const j = await claim(app, runnerId, [CPU_B.id], 200);
        return j?.payload.target_id === submitted.body.id ? j : undefined;
      },
      { what: 'the ranked job' },
    );
    expect(rankedJob.payload.mode).toBe('ranked');
    expect(typeof rankedJob.payload.secret_seed).toBe('string');
  });
});

describe("a test run's wait", () => {
  let app: TestApp;
  let runnerId: string;
  let user: TestUser;
  beforeAll(async () => {
    app = await createProductApp({ background: true });
    runnerId = await registerRunner(app, [CPU]);
    user = await app.createUser({ full_name: 'Waiter' });
  });
  afterAll(() => app?.stop());

  const progressOf = async (id: string) =>
    (await json<SubmissionProgress>(app.request(`/api/v1/submission/${id}/progress`, { token: user.token }))).body;

  test("is estimated from earlier test runs (timed twice), not a session's attempts (timed once)", async () => {
    // A session's attempt on the same problem and device, held 2.5 s by its runner.
    const session = await createReluSession(app, user, 'attempts', 1);
    await waitForQueuedAttempt(app, session.id, 1);
    const attempt = (await claim(app, runnerId, [CPU.id])) as Claimed;
    expect(attempt.payload.kind).toBe('attempt');
    await new Promise((r) => setTimeout(r, 2500));
    await postResult(app, runnerId, attempt, { evaluation_state: fakeState('benchmark', 2) });

    // A test run held 0.2 s.
    const body = { problem_name: '19_ReLU', device: CPU.id, language: 'c', source: RELU };
    const first = await json<Submission>(
      app.request('/api/v1/submission/test', { method: 'POST', token: user.token, json: body }),
    );
    expect(first.status).toBe(201);
    const job = (await claim(app, runnerId, [CPU.id])) as Claimed;
    expect(job.payload).toMatchObject({ kind: 'submission', target_id: first.body.id, mode: 'benchmark' });
    await new Promise((r) => setTimeout(r, 200));
    await postResult(app, runnerId, job, { evaluation_state: fakeState('benchmark', 2) });

    // The next test run's typical duration is the test run's (0.2 s), not the median with the attempt's 2.5 s (1.35 s).
    const next = await json<Submission>(
      app.request('/api/v1/submission/test', { method: 'POST', token: user.token, json: body }),
    );
    const waiting = await progressOf(next.body.id);
    expect(waiting.phase).toBe('queued');
    expect(waiting.typical_seconds).toBeGreaterThan(0);
    expect(waiting.typical_seconds).toBeLessThan(1);
  });
});

describe('a test run through the in-process runner', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startProductServer({ localRunner: true });
  }, 120_000);
  afterAll(() => server?.stop());

  test('a ReLU test run is compiled, checked and benchmarked, and the board stays empty', async () => {
    const user = await server.createUser({ full_name: 'Runner' });
    const devices = await json<{ data: Array<{ id: string; kind: string }> }>(
      server.request('/api/v1/devices', { token: user.token }),
    );
    const device = devices.body.data.find((d) => d.kind === 'cpu')?.id ?? '';
    const created = await json<Submission>(
      server.request('/api/v1/submission/test', {
        method: 'POST',
        token: user.token,
        json: { problem_name: '19_ReLU', device, language: 'c', source: RELU },
      }),
    );
    expect(created.status).toBe(201);
    const done = await waitFor(
      async () => {
        const d = await json<SubmissionDetail>(
          server.request(`/api/v1/leaderboard/submission/${created.body.id}`, { token: user.token }),
        );
        return d.body.status === 'completed' || d.body.status === 'failed' ? d.body : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 250, what: 'the test run' },
    );
    expect(done).toMatchObject({ purpose: 'test', status: 'completed', verdict: 'accepted', rank: null });
    expect(done.evaluation_state?.mode).toBe('benchmark');
    expect(done.evaluation_state?.correctness?.passed).toBe(true);
    expect(done.time_ms).toBeGreaterThan(0);
    const board = await json<Leaderboard>(server.request('/api/v1/leaderboard/19_ReLU', { token: user.token }));
    expect(board.body.entries).toEqual([]);
  }, 300_000);
});
