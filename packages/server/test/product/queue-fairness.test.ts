// The evaluation queue's order: a submission and a fresh instruction do not wait behind later session attempts.
import type { Submission } from '@kernelforge/sdk';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestServer, TestUser } from '../helpers/server.js';
import {
  CPU,
  claim,
  createReluSession,
  fakeState,
  json,
  postResult,
  queuedEvaluations,
  registerRunner,
  startProductServer,
  waitFor,
} from './helpers.js';

let server: TestServer;
let user: TestUser;
let runnerId: string;

beforeAll(async () => {
  server = await startProductServer();
  runnerId = await registerRunner(server, [CPU]);
  user = await server.createUser();
});
afterAll(() => server?.stop());

/** The session an evaluate job belongs to, or 'submission'. */
const ownerOf = async (targetId: string, kind: string) => {
  if (kind === 'submission') return 'submission';
  const rows = await server.ctx.db.query<{ session_id: string; attempt_number: number }>(
    'SELECT session_id, attempt_number FROM generation_attempts WHERE id = $1',
    [targetId],
  );
  return `${rows[0]?.session_id}#${rows[0]?.attempt_number}`;
};

test('a submission, then a new session first attempt, are claimed before later attempts queued earlier', async () => {
  // Three sessions get their first attempt evaluated, so each has a later attempt's evaluation waiting.
  const busy = [
    await createReluSession(server, user, 'busy-1', 5),
    await createReluSession(server, user, 'busy-2', 5),
    await createReluSession(server, user, 'busy-3', 5),
  ];
  for (let i = 0; i < busy.length; i++) {
    const job = await claim(server, runnerId, [CPU.id]);
    expect(job?.payload.kind).toBe('attempt');
    await postResult(server, runnerId, job as NonNullable<typeof job>, { evaluation_state: fakeState('benchmark', 2) });
  }
  await waitFor(async () => (await queuedEvaluations(server)) === busy.length, { what: 'three later attempts queued' });

  // Then a user submits, and someone else's new session starts.
  const submitted = await json<Submission>(
    server.request('/api/v1/submission', {
      method: 'POST',
      token: user.token,
      json: { problem_name: '19_ReLU', device: CPU.id, language: 'c', source: 'void solution(){}' },
    }),
  );
  expect(submitted.status).toBe(201);
  const fresh = await createReluSession(server, user, 'fresh', 5);
  await waitFor(async () => (await queuedEvaluations(server)) === busy.length + 2, {
    what: 'the fresh attempt queued',
  });

  const order: string[] = [];
  for (let i = 0; i < busy.length + 2; i++) {
    const job = await claim(server, runnerId, [CPU.id], 1000);
    if (!job) throw new Error('queue ran dry');
    order.push(await ownerOf(job.payload.target_id, job.payload.kind));
    const state = job.payload.kind === 'submission' ? fakeState('ranked', 1) : fakeState('benchmark', 2);
    await postResult(server, runnerId, job, { evaluation_state: state });
  }
  expect(order[0]).toBe('submission');
  expect(order[1]).toBe(`${fresh.id}#1`);
  // The later attempts keep their first-come order among themselves.
  expect(order.slice(2)).toEqual(busy.map((s) => `${s.id}#2`));
});
