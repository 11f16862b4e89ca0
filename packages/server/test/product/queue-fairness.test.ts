// The evaluation queue's order: a submission and a fresh instruction do not wait behind later session attempts.
import type { Submission } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import {
  CPU,
  claim,
  createReluSession,
  fakeState,
  json,
  postResult,
  queuedEvaluations,
  registerRunner,
  createProductApp,
  waitFor,
  waitForQueuedAttempt,
} from './helpers.js';

let app: TestApp;
let user: TestUser;
let runnerId: string;

beforeAll(async () => {
  app = await createProductApp({ background: true });
  runnerId = await registerRunner(app, [CPU]);
  user = await app.createUser();
});
afterAll(() => app?.stop());

/** The session an evaluate job belongs to, or 'submission'. */
const ownerOf = async (targetId: string, kind: string) => {
  if (kind === 'submission') return 'submission';
  const rows = await app.ctx.db.query<{ session_id: string; attempt_number: number }>(
    'SELECT session_id, attempt_number FROM generation_attempts WHERE id = $1',
    [targetId],
  );
  return `${rows[0]?.session_id}#${rows[0]?.attempt_number}`;
};

test('a submission, then a new session first attempt, are claimed before later attempts queued earlier', async () => {
  // Three sessions get their first attempt evaluated, so each has a later attempt's evaluation waiting.
  // Each first attempt queued before the next session starts; each later attempt queued before the next claim, so
  // the later attempts' first-come order is the order their sessions' results were posted in.
  const busy = [];
  for (const name of ['busy-1', 'busy-2', 'busy-3']) {
    const session = await createReluSession(app, user, name, 5);
    await waitForQueuedAttempt(app, session.id, 1);
    busy.push(session);
  }
  const laterOrder: string[] = [];
  for (let i = 0; i < busy.length; i++) {
    const job = await claim(app, runnerId, [CPU.id]);
    expect(job?.payload.kind).toBe('attempt');
    const owner = await ownerOf(String(job?.payload.target_id), 'attempt');
    await postResult(app, runnerId, job as NonNullable<typeof job>, { evaluation_state: fakeState('benchmark', 2) });
    const sessionId = owner.split('#')[0] as string;
    await waitForQueuedAttempt(app, sessionId, 2);
    laterOrder.push(`${sessionId}#2`);
  }
  // First come, first served among the first attempts too.
  expect(laterOrder).toEqual(busy.map((s) => `${s.id}#2`));
  await waitFor(async () => (await queuedEvaluations(app)) === busy.length, { what: 'three later attempts queued' });

  // Then a user submits, and someone else's new session starts.
  const submitted = await json<Submission>(
    app.request('/api/v1/submission', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, language: 'c', source: 'void solution(){}' },
    }),
  );
  expect(submitted.status).toBe(201);
  const fresh = await createReluSession(app, user, 'fresh', 5);
  await waitFor(async () => (await queuedEvaluations(app)) === busy.length + 2, {
    what: 'the fresh attempt queued',
  });

  const order: string[] = [];
  for (let i = 0; i < busy.length + 2; i++) {
    const job = await claim(app, runnerId, [CPU.id], 1000);
    if (!job) throw new Error('queue ran dry');
    order.push(await ownerOf(job.payload.target_id, job.payload.kind));
    const state = job.payload.kind === 'submission' ? fakeState('ranked', 1) : fakeState('benchmark', 2);
    await postResult(app, runnerId, job, { evaluation_state: state });
  }
  expect(order[0]).toBe('submission');
  expect(order[1]).toBe(`${fresh.id}#1`);
  // The later attempts keep their first-come order among themselves.
  expect(order.slice(2)).toEqual(laterOrder);
});
