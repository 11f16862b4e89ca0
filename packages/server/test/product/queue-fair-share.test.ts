// Fair share of a shared runner between users: one user's many sessions do not hold it while someone else waits.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import {
  CPU,
  claim,
  createReluSession,
  fakeState,
  postResult,
  queuedEvaluations,
  registerRunner,
  createProductApp,
  waitFor,
  waitForQueuedAttempt,
} from './helpers.js';

let app: TestApp;
let runnerId: string;
let heavy: TestUser;
let light: TestUser;

beforeAll(async () => {
  app = await createProductApp({ background: true });
  runnerId = await registerRunner(app, [CPU]);
  heavy = await app.createUser();
  light = await app.createUser();
});
afterAll(() => app?.stop());

const sessionOf = async (attemptId: string) =>
  (
    await app.ctx.db.query<{ session_id: string }>('SELECT session_id FROM generation_attempts WHERE id = $1', [
      attemptId,
    ])
  )[0]?.session_id;

test("a user with jobs running waits for another user's job, whatever the queue's age order", async () => {
  // One at a time, each queued before the next session starts, so the age order among them is known.
  const mine = [];
  for (const name of ['heavy-1', 'heavy-2', 'heavy-3']) {
    const session = await createReluSession(app, heavy, name, 1);
    await waitForQueuedAttempt(app, session.id, 1);
    mine.push(session);
  }
  const theirs = await createReluSession(app, light, 'light-1', 1);
  await waitFor(async () => (await queuedEvaluations(app)) === 4, { what: "the light user's evaluation queued" });

  // Two runners' worth of claims, each held (not finished) while the next is made.
  const held = [];
  const order: string[] = [];
  for (let i = 0; i < 4; i++) {
    const job = await claim(app, runnerId, [CPU.id], 1000);
    if (!job) throw new Error('queue ran dry');
    held.push(job);
    const session = await sessionOf(job.payload.target_id);
    order.push(session === theirs.id ? 'light' : `heavy-${mine.findIndex((s) => s.id === session) + 1}`);
  }
  // The oldest job first; then the light user's (no job running) before the heavy user's second and third,
  // which were queued earlier; among the heavy user's own jobs, first come first served.
  expect(order).toEqual(['heavy-1', 'light', 'heavy-2', 'heavy-3']);
  for (const job of held) await postResult(app, runnerId, job, { evaluation_state: fakeState('benchmark', 2) });
});
