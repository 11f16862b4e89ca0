// Fair share by runner time: a user whose jobs held the only runner waits behind one who has not had it, whatever
// the queue's age order (issue 31: three sleeping submissions held the runner minutes each while another user waited).
import type { Submission } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import {
  CPU_B,
  type Claimed,
  claim,
  fakeState,
  json,
  postResult,
  registerRunner,
  createProductApp,
} from './helpers.js';

let app: TestApp;
let runnerId: string;

beforeAll(async () => {
  app = await createProductApp();
  runnerId = await registerRunner(app, [CPU_B]);
});
afterAll(() => app?.stop());

async function submit(user: TestUser, label: string): Promise<string> {
  const created = await json<Submission>(
    app.request('/api/v1/submission', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: `// ${label}\nvoid solution() {}` },
    }),
  );
  if (created.status !== 201) throw new Error(`submit ${label}: ${created.status}`);
  return created.body.id;
}

async function claimed(): Promise<Claimed> {
  const job = await claim(app, runnerId, [CPU_B.id], 1000);
  if (!job) throw new Error('queue ran dry');
  return job;
}

const finish = async (job: Claimed) => {
  const posted = await postResult(app, runnerId, job, { evaluation_state: fakeState('ranked', 2) });
  expect(posted.status).toBe(200);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a user who has had the only runner waits behind another user's later job", async () => {
  const [a, b] = await Promise.all([app.createUser(), app.createUser()]);
  const names = new Map<string, string>();
  for (const label of ['a-1', 'a-2', 'a-3']) names.set(await submit(a, label), label);
  const first = await claimed();
  expect(names.get(first.payload.target_id)).toBe('a-1');
  // B submits while A's first job holds the runner (a candidate sleeping in its call holds it for minutes).
  names.set(await submit(b, 'b-1'), 'b-1');
  await sleep(1500);
  await finish(first);

  // One runner, so nothing of A's runs at the next claim: what decides is the runner time A has had.
  const order: string[] = [];
  for (let i = 0; i < 3; i++) {
    const job = await claimed();
    order.push(names.get(job.payload.target_id) ?? '?');
    await finish(job);
  }
  expect(order).toEqual(['b-1', 'a-2', 'a-3']);
  // The runner time is on the job rows: A's first job ran for the time it was held.
  const [ran] = await app.ctx.db.query<{ run_seconds: number }>(
    `SELECT run_seconds FROM jobs WHERE payload->>'target_id' = $1`,
    [first.payload.target_id],
  );
  expect(Number(ran?.run_seconds)).toBeGreaterThan(1);
});

test('with a job running, a user gets no second runner while another user waits, though that user used more time', async () => {
  const [a, b] = await Promise.all([app.createUser(), app.createUser()]);
  // B has had the runner for a while.
  await submit(b, 'b-0');
  const before = await claimed();
  await sleep(1200);
  await finish(before);

  const names = new Map<string, string>();
  for (const label of ['a-1', 'a-2']) names.set(await submit(a, label), label);
  names.set(await submit(b, 'b-1'), 'b-1');
  // A has used none: A's first job goes first, and is still running at the next claim (a second runner's).
  const held = await claimed();
  expect(names.get(held.payload.target_id)).toBe('a-1');
  const next = await claimed();
  expect(names.get(next.payload.target_id)).toBe('b-1');
  const last = await claimed();
  expect(names.get(last.payload.target_id)).toBe('a-2');
  for (const job of [held, next, last]) await finish(job);
});
