// Every product call's happy path and error statuses, through app.request() with a stand-in runner registration.
import type {
  AgentSession,
  AgentSessionSummary,
  GenerationAttempt,
  Leaderboard,
  Problem,
  Submission,
  UserInstruction,
} from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { enqueueJob } from '../../src/jobs/queue.js';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import {
  CPU,
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
let alice: TestUser;
let runnerId: string;

beforeAll(async () => {
  app = await createProductApp();
  runnerId = await registerRunner(app, [CPU, CPU_B]);
  alice = await app.createUser({ full_name: 'Alice' });
});
afterAll(() => app?.stop());

const req = (path: string, init: Parameters<TestApp['request']>[1] = {}) =>
  json<any>(app.request(`/api/v1${path}`, { token: alice.token, ...init }));
const create = (body: Record<string, unknown>) => req('/agent-session', { method: 'POST', json: body });

describe('problems and devices', () => {
  test('the catalogue lists problems without ranked sizes', async () => {
    const { status, body } = await req('/problems');
    expect(status).toBe(200);
    const names = body.data.map((p: Problem) => p.name);
    expect(names).toContain('19_ReLU');
    expect(body.count).toBe(body.data.length);
    expect(JSON.stringify(body)).not.toContain('"ranked"');
    const one = await req('/problems/19_ReLU');
    expect(one.status).toBe(200);
    expect(one.body.prototype).toContain('solution');
    expect(one.body.reference_source).toBeTruthy();
    expect(Object.keys(one.body.cases)).toEqual(['test', 'benchmark']);
  });

  test('an unknown problem is a 404 with a one-line detail saying where the names are, and the one meant', async () => {
    const { status, body } = await req('/problems/nope');
    expect(status).toBe(404);
    expect(body.detail).toBe("Unknown problem 'nope'; GET /api/v1/problems lists them");
    const near = await req('/problems/relu');
    expect(near.status).toBe(404);
    expect(near.body.detail).toBe("Unknown problem 'relu' (did you mean '19_ReLU'?); GET /api/v1/problems lists them");
  });

  test('devices come from registered runners', async () => {
    const { status, body } = await req('/devices');
    expect(status).toBe(200);
    const cpu = body.data.find((d: { id: string }) => d.id === 'cpu-x86_64');
    expect(cpu).toMatchObject({ kind: 'cpu', available: true, runners: 1 });
  });

  test('the agents on offer: the tuner always, with no model to pick', async () => {
    const { status, body } = await req('/agents');
    expect(status).toBe(200);
    expect(body.data).toContainEqual({ provider: 'tuner', models: [], default_model: null });
  });

  test('anonymous callers get 401', async () => {
    for (const path of ['/problems', '/devices', '/agents', '/agent-session', '/leaderboard', '/submission']) {
      expect((await json(app.request(`/api/v1${path}`))).status).toBe(401);
    }
  });
});

describe('sessions', () => {
  let session: AgentSession;

  test('creating a session queues attempt #1 under the default instruction', async () => {
    const { status, body } = await create({ problem_name: '19_ReLU', device: 'cpu-x86_64', max_attempts: 2 });
    expect(status).toBe(201);
    session = body;
    expect(body).toMatchObject({
      owner_id: alice.user.id,
      problem_name: '19_ReLU',
      device: 'cpu-x86_64',
      status: 'active',
      agent: { provider: 'tuner' },
    });
    expect(body.user_instructions).toHaveLength(1);
    expect(body.user_instructions[0]).toMatchObject({
      text: 'Optimize for speed',
      max_attempts: 2,
      starred: false,
      status: 'active',
    });
    expect(body.generation_attempts).toHaveLength(1);
    expect(body.generation_attempts[0]).toMatchObject({ attempt_number: 1, status: 'queued' });
    expect(body.best_attempt.id).toBe(body.generation_attempts[0].id);
  });

  test('bad bodies are 422 in the FastAPI shape; unknown problem 404; unknown device and agent 422', async () => {
    const bad = await create({ device: 'cpu-x86_64' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'problem_name'] });
    const tooMany = await create({ problem_name: '19_ReLU', device: 'cpu-x86_64', max_attempts: 21 });
    expect(tooMany.status).toBe(422);
    const problem = await create({ problem_name: 'nope', device: 'cpu-x86_64' });
    expect(problem.status).toBe(404);
    expect(problem.body.detail).toContain('GET /api/v1/problems');
    expect(problem.body.detail).not.toContain('19_ReLU');
    const device = await create({ problem_name: '19_ReLU', device: 'tpu-9' });
    expect(device.status).toBe(422);
    expect(device.body.detail[0].loc).toEqual(['body', 'device']);
    expect(device.body.detail[0].msg).toContain('cpu-x86_64');
    const agent = await create({ problem_name: '19_ReLU', device: 'cpu-x86_64', agent: { provider: 'gpt-9' } });
    expect(agent.status).toBe(422);
    const notJson = await json(
      app.request('/api/v1/agent-session', {
        method: 'POST',
        token: alice.token,
        body: '{',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(notJson.status).toBe(422);
  });

  test('list is paged {data, count}, newest first, without sources', async () => {
    await create({ problem_name: '19_ReLU', device: 'cpu-x86_64', name: 'second' });
    const all = await req('/agent-session');
    expect(all.status).toBe(200);
    expect(all.body.count).toBeGreaterThanOrEqual(2);
    expect(all.body.data[0].name).toBe('second');
    expect(all.body.data[0].attempt_count).toBe(1);
    expect(all.body.data[0]).not.toHaveProperty('generation_attempts');
    const page = await req('/agent-session?limit=1&offset=1');
    expect(page.body.data).toHaveLength(1);
    expect(page.body.count).toBe(all.body.count);
    expect((await req('/agent-session?limit=0')).status).toBe(422);
  });

  test('get, rename and relabel', async () => {
    const got = await req(`/agent-session/${session.id}`);
    expect(got.status).toBe(200);
    const patched = await req(`/agent-session/${session.id}`, {
      method: 'PATCH',
      json: { name: 'Fast ReLU', label: 'relu-v1' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Fast ReLU', label: 'relu-v1' });
    expect((await req(`/agent-session/${session.id}`, { method: 'PATCH', json: { name: '' } })).status).toBe(422);
    expect((await req('/agent-session/00000000-0000-0000-0000-000000000000')).body).toEqual({
      detail: 'Session not found',
    });
    expect((await req('/agent-session/not-a-uuid')).status).toBe(404);
  });

  test('best-attempt answers the first attempt while none is completed', async () => {
    const { status, body } = await req(`/agent-session/${session.id}/best-attempt`);
    expect(status).toBe(200);
    expect(body.attempt_number).toBe(1);
  });

  test('stop, delete (hidden from the list), restore', async () => {
    const stopped = await req(`/agent-session/${session.id}/stop`, { method: 'POST' });
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('stopped');
    expect(stopped.body.user_instructions[0].status).toBe('stopped');
    for (const a of stopped.body.generation_attempts as GenerationAttempt[])
      expect(['stopped', 'evaluating', 'completed']).toContain(a.status);
    const deleted = await req(`/agent-session/${session.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const list = await req('/agent-session?limit=100');
    expect(list.body.data.map((s: AgentSessionSummary) => s.id)).not.toContain(session.id);
    const withDeleted = await req('/agent-session?limit=100&include_deleted=true');
    expect(withDeleted.body.data.map((s: AgentSessionSummary) => s.id)).toContain(session.id);
    expect((await req(`/agent-session/${session.id}`)).body.deleted_at).not.toBeNull();
    const restored = await req(`/agent-session/${session.id}/restore`, { method: 'POST' });
    expect(restored.status).toBe(200);
    expect(restored.body.deleted_at).toBeNull();
  });

  test('a new round of attempts adds an instruction and reactivates a stopped session', async () => {
    const { status, body } = await req(`/agent-session/${session.id}/attempt`, {
      method: 'POST',
      json: { instruction: 'no OpenMP', max_attempts: 1 },
    });
    expect(status).toBe(201);
    expect(body.instruction).toMatchObject({ text: 'no OpenMP', max_attempts: 1, status: 'active' });
    expect(body.generation_attempts).toHaveLength(1);
    expect(body.generation_attempts[0].attempt_number).toBe(2);
    const s = await req(`/agent-session/${session.id}`);
    expect(s.body.status).toBe('active');
    expect(s.body.user_instructions).toHaveLength(2);
    expect(
      (await req(`/agent-session/${session.id}/attempt`, { method: 'POST', json: { instruction: '' } })).status,
    ).toBe(422);
    expect(
      (
        await req(`/agent-session/${session.id}/attempt`, {
          method: 'POST',
          json: { instruction: 'x', max_attempts: 50 },
        })
      ).status,
    ).toBe(422);
  });

  test('custom sessions: a private problem, the own solution evaluated as attempt #1', async () => {
    const problem = {
      signature: [
        { name: 'x', type: 'f32*', role: 'in', shape: ['n'] },
        { name: 'y', type: 'f32*', role: 'out', shape: ['n'] },
        { name: 'n', type: 'i64', role: 'size' },
      ],
      reference_source:
        '#include <stdint.h>\nvoid solution(const float* x, float* y, int64_t n) { for (int64_t i = 0; i < n; i++) y[i] = 2.0f * x[i]; }\n',
      language: 'c',
      cases: { test: [{ name: 'small', sizes: { n: 1000 } }], benchmark: [{ name: 'big', sizes: { n: 100000 } }] },
    };
    const { status, body } = await req('/agent-session/custom', {
      method: 'POST',
      json: { name: 'Double it', problem, device: 'cpu-x86_64', solution_source: problem.reference_source },
    });
    expect(status).toBe(201);
    expect(body.custom).toBe(true);
    expect(body.generation_attempts[0]).toMatchObject({
      attempt_number: 1,
      status: 'evaluating',
      source: problem.reference_source,
    });
    const bad = await req('/agent-session/custom', {
      method: 'POST',
      json: { name: 'x', problem: { ...problem, signature: [] }, device: 'cpu-x86_64' },
    });
    expect(bad.status).toBe(422);
    // Custom problems never reach the public catalogue.
    expect((await req('/problems')).body.data.map((p: Problem) => p.name)).not.toContain(body.problem_name);
  });
});

describe('instructions', () => {
  let instruction: UserInstruction;
  let sessionId: string;

  beforeAll(async () => {
    const { body } = await create({
      problem_name: '19_ReLU',
      device: 'cpu-x86_64',
      instruction: 'use bigger tiles please',
    });
    sessionId = body.id;
    instruction = body.user_instructions[0];
  });

  test('rename, star and unstar', async () => {
    const renamed = await req(`/agent-session/instruction/${instruction.id}`, {
      method: 'PATCH',
      json: { name: 'Tiles' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: instruction.id, name: 'Tiles', text: 'use bigger tiles please' });
    expect((await req(`/agent-session/instruction/${instruction.id}`, { method: 'PATCH', json: {} })).status).toBe(422);
    expect((await req(`/agent-session/instruction/${instruction.id}/star`, { method: 'POST' })).body.starred).toBe(
      true,
    );
    expect((await req(`/agent-session/instruction/${instruction.id}/star`, { method: 'DELETE' })).body.starred).toBe(
      false,
    );
  });

  test('stop keeps the attempts; delete hides; restore un-hides', async () => {
    const stopped = await req(`/agent-session/instruction/${instruction.id}/stop`, { method: 'POST' });
    expect(stopped.status).toBe(200);
    expect(stopped.body.status).toBe('stopped');
    const s = await req(`/agent-session/${sessionId}`);
    expect(s.body.generation_attempts.length).toBeGreaterThanOrEqual(1);
    const deleted = await req(`/agent-session/instruction/${instruction.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted_at).not.toBeNull();
    const restored = await req(`/agent-session/instruction/${instruction.id}/restore`, { method: 'POST' });
    expect(restored.body.deleted_at).toBeNull();
  });

  test('an unknown instruction is a 404', async () => {
    const missing = '00000000-0000-0000-0000-000000000000';
    for (const [method, suffix] of [
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/restore'],
      ['POST', '/stop'],
      ['POST', '/star'],
      ['DELETE', '/star'],
    ] as const) {
      const r = await req(`/agent-session/instruction/${missing}${suffix}`, {
        method,
        ...(method === 'PATCH' ? { json: { name: 'x' } } : {}),
      });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: 'Instruction not found' });
    }
  });
});

describe('submissions and leaderboards', () => {
  async function submitAndEvaluate(
    user: TestUser,
    time: number | null,
    opts: { problem?: string; interval?: [number, number] } = {},
  ): Promise<Submission> {
    const created = await json<Submission>(
      app.request('/api/v1/submission', {
        method: 'POST',
        token: user.token,
        json: {
          problem_name: opts.problem ?? '19_ReLU',
          device: CPU_B.id,
          language: 'c',
          source: `// t=${time}\nvoid solution() {}`,
        },
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.status).toBe('queued');
    const job = await claim(app, runnerId, [CPU_B.id]);
    expect(job?.payload).toMatchObject({ kind: 'submission', target_id: created.body.id, mode: 'ranked' });
    // The runner, and only the runner, gets the leaderboard's secret seed.
    expect(job?.payload.secret_seed).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(created.body)).not.toContain(job?.payload.secret_seed);
    // While the runner holds the job (claimed, nothing posted yet) the submission is being evaluated.
    expect((await statusOf(user, created.body.id)).status).toBe('evaluating');
    const state = fakeState('ranked', time);
    if (opts.interval && state.benchmarking_result)
      Object.assign(state.benchmarking_result, { optimized_time_interval: opts.interval });
    const posted = await postResult(app, runnerId, job as NonNullable<typeof job>, { evaluation_state: state });
    expect(posted.status).toBe(200);
    expect((await statusOf(user, created.body.id)).status).toBe('completed');
    return created.body;
  }

  async function statusOf(user: TestUser, id: string): Promise<Submission> {
    const res = await json<Submission>(app.request(`/api/v1/leaderboard/submission/${id}`, { token: user.token }));
    expect(res.status).toBe(200);
    return res.body;
  }

  test('a submission is queued, evaluating while a runner holds its job, queued again when the job is retried', async () => {
    const carol = await app.createUser({ full_name: 'Carol' });
    const created = await json<Submission>(
      app.request('/api/v1/submission', {
        method: 'POST',
        token: carol.token,
        json: { problem_name: '19_ReLU', device: CPU_B.id, language: 'c', source: 'void solution() {}' },
      }),
    );
    expect(created.status).toBe(201);
    expect((await statusOf(carol, created.body.id)).status).toBe('queued');
    const first = await claim(app, runnerId, [CPU_B.id]);
    expect(first?.payload.target_id).toBe(created.body.id);
    expect((await statusOf(carol, created.body.id)).status).toBe('evaluating');
    // A runner's infrastructure error: the job goes back to the queue, and so does the submission.
    expect((await postResult(app, runnerId, first as Claimed, { error: 'runner disk full' })).status).toBe(200);
    expect((await statusOf(carol, created.body.id)).status).toBe('queued');
    const second = await claim(app, runnerId, [CPU_B.id]);
    expect(second?.job_id).toBe(first?.job_id);
    expect((await statusOf(carol, created.body.id)).status).toBe('evaluating');
    expect(
      (await postResult(app, runnerId, second as Claimed, { evaluation_state: fakeState('ranked', null) })).status,
    ).toBe(200);
    const done = await statusOf(carol, created.body.id);
    expect(done).toMatchObject({ status: 'completed', verdict: 'incorrect', time_ms: null });
  });

  test("ranked: one row per user and device, their best time, in order; details hide others' sources", async () => {
    const bob = await app.createUser({ full_name: 'Bob' });
    const a1 = await submitAndEvaluate(alice, 3);
    const a2 = await submitAndEvaluate(alice, 2);
    const b1 = await submitAndEvaluate(bob, 2.5);
    await submitAndEvaluate(bob, null);

    const board = await req(`/leaderboard/19_ReLU?device=${CPU_B.id}`);
    expect(board.status).toBe(200);
    const lb = board.body as Leaderboard;
    expect(lb.entries.map((e) => [e.rank, e.submission_id, e.time_ms])).toEqual([
      [1, a2.id, 2],
      [2, b1.id, 2.5],
    ]);
    expect(lb.count).toBe(2);
    expect(lb.entries[0]?.user).toEqual({ id: alice.user.id, full_name: 'Alice', display_name: 'Alice' });
    expect((await req(`/leaderboard/19_ReLU?device=${CPU_B.id}&limit=1`)).body.entries).toHaveLength(1);
    expect((await req('/leaderboard/nope')).status).toBe(404);

    const all = await req('/leaderboard');
    expect(all.status).toBe(200);
    const relu = all.body.data.find((b: Leaderboard) => b.problem_name === '19_ReLU');
    expect(relu.entries.length).toBeLessThanOrEqual(3);
    expect(all.body.data.length).toBe(all.body.count);

    const mine = await req(`/leaderboard/submission/${a2.id}`);
    expect(mine.body).toMatchObject({ id: a2.id, rank: 1, status: 'completed', verdict: 'accepted', time_ms: 2 });
    expect(mine.body.source).toContain('t=2');
    // Ranked results carry neither the candidate's output nor hidden sizes.
    expect(mine.body.evaluation_state.stdout).toBeUndefined();
    expect(JSON.stringify(mine.body)).not.toContain('123457');
    const theirs = await json<any>(app.request(`/api/v1/leaderboard/submission/${a2.id}`, { token: bob.token }));
    expect(theirs.status).toBe(200);
    expect(theirs.body.source).toBeNull();
    expect((await req(`/leaderboard/submission/${a1.id}`)).body.rank).toBeNull();
    const admin = await json<any>(app.request(`/api/v1/leaderboard/submission/${a2.id}`, { token: app.admin.token }));
    expect(admin.body.source).toContain('t=2');
    expect((await req('/leaderboard/submission/00000000-0000-0000-0000-000000000000')).status).toBe(404);

    const own = await req('/submission');
    expect(own.status).toBe(200);
    expect(own.body.data.every((s: Submission) => s.user.id === alice.user.id)).toBe(true);
    expect(own.body.count).toBe(2);
  });

  test('a row says how many runs stand behind it, and whether it is within noise of the row above', async () => {
    const [dan, erin, fay] = await Promise.all(['Dan', 'Erin', 'Fay'].map((n) => app.createUser({ full_name: n })));
    const problem = '20_LeakyReLU';
    await submitAndEvaluate(dan as TestUser, 2.2, { problem, interval: [2.1, 2.3] });
    await submitAndEvaluate(dan as TestUser, 2, { problem, interval: [1.9, 2.1] });
    await submitAndEvaluate(dan as TestUser, null, { problem });
    // Erin's interval overlaps Dan's best: the order of the two is not established. Fay's does not overlap Erin's.
    await submitAndEvaluate(erin as TestUser, 2.05, { problem, interval: [2.0, 2.2] });
    await submitAndEvaluate(fay as TestUser, 3, { problem, interval: [2.9, 3.1] });
    const lb = (await req(`/leaderboard/${problem}?device=${CPU_B.id}`)).body as Leaderboard;
    expect(
      lb.entries.map((e) => [e.user.full_name, e.rank, e.runs, e.within_noise_of_previous, e.time_interval]),
    ).toEqual([
      ['Dan', 1, 2, false, [1.9, 2.1]],
      ['Erin', 2, 1, true, [2.0, 2.2]],
      ['Fay', 3, 1, false, [2.9, 3.1]],
    ]);
  });

  test('submission validation: unknown problem 404, unknown device 422, wrong language 422', async () => {
    const post = (body: Record<string, unknown>) => req('/submission', { method: 'POST', json: body });
    expect((await post({ problem_name: 'nope', device: CPU.id, language: 'c', source: 'x' })).status).toBe(404);
    expect((await post({ problem_name: '19_ReLU', device: 'tpu', language: 'c', source: 'x' })).status).toBe(422);
    expect((await post({ problem_name: '19_ReLU', device: CPU.id, language: 'cuda', source: 'x' })).status).toBe(422);
    expect((await post({ problem_name: '19_ReLU', device: CPU.id, language: 'c' })).status).toBe(422);
  });
});

describe('runner API', () => {
  test('a bad runner token is 401; an unknown runner 404; a stale lease 409', async () => {
    const bad = await json(
      app.request('/api/v1/runner/register', { method: 'POST', token: 'nope', json: { name: 'x', devices: [] } }),
    );
    expect(bad.status).toBe(401);
    const userToken = await json(
      app.request('/api/v1/runner/register', {
        method: 'POST',
        token: alice.token,
        json: { name: 'x', devices: [] },
      }),
    );
    expect(userToken.status).toBe(401);
    const unknown = await json(
      app.request('/api/v1/runner/claim', {
        method: 'POST',
        token: 'test-runner-token-0123456789',
        json: { runner_id: '00000000-0000-0000-0000-000000000000', devices: ['cpu-x86_64'] },
      }),
    );
    expect(unknown.status).toBe(404);
    const hb = await json(
      app.request('/api/v1/runner/jobs/00000000-0000-0000-0000-000000000000/heartbeat', {
        method: 'POST',
        token: 'test-runner-token-0123456789',
        json: { runner_id: runnerId, lease_token: 'x' },
      }),
    );
    expect(hb.status).toBe(409);
    const res = await json(
      app.request('/api/v1/runner/jobs/00000000-0000-0000-0000-000000000000/result', {
        method: 'POST',
        token: 'test-runner-token-0123456789',
        json: { runner_id: runnerId, lease_token: 'x', error: 'boom' },
      }),
    );
    expect(res.status).toBe(409);
  });

  test('an empty long poll returns {job: null} after waiting', async () => {
    const started = Date.now();
    expect(await claim(app, runnerId, ['no-such-device'], 300)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

test('the OpenAPI document lists the product routes', async () => {
  const doc = await json<{ paths: Record<string, Record<string, unknown>> }>(app.request('/api/v1/openapi.json'));
  expect(doc.status).toBe(200);
  for (const [path, method] of [
    ['/api/v1/agent-session', 'post'],
    ['/api/v1/agent-session/all', 'get'],
    ['/api/v1/agent-session/{id}/attempt', 'post'],
    ['/api/v1/agent-session/{id}/events', 'get'],
    ['/api/v1/agent-session/instruction/{id}/star', 'delete'],
    ['/api/v1/leaderboard/submission/{submission_id}', 'get'],
    ['/api/v1/runner/claim', 'post'],
    ['/api/v1/devices', 'get'],
  ] as const) {
    expect(doc.body.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  }
});

describe('device names', () => {
  test('a generic id (cpu-x86_64 before devices were named by ISA class and model) names the one device extending it', async () => {
    const named = (id: string) => ({ ...CPU, id, name: id });
    await registerRunner(app, [named('cpu-zz9-avx2-acme-1')], 'zz9-a');
    const one = await create({ problem_name: '19_ReLU', device: 'cpu-zz9', max_attempts: 1 });
    expect(one.status).toBe(201);
    expect(one.body.device).toBe('cpu-zz9-avx2-acme-1');
    // A second machine of that architecture with another ISA: the generic id no longer says which.
    await registerRunner(app, [named('cpu-zz9-avx512-acme-2')], 'zz9-b');
    const two = await create({ problem_name: '19_ReLU', device: 'cpu-zz9', max_attempts: 1 });
    expect(two.status).toBe(422);
    expect(two.body.detail[0]).toMatchObject({
      loc: ['body', 'device'],
      msg: "Device 'cpu-zz9' could mean cpu-zz9-avx2-acme-1, cpu-zz9-avx512-acme-2: name one of them",
    });
    // Its own id always works; a prefix that is not a whole word of the id names nothing.
    expect((await create({ problem_name: '19_ReLU', device: 'cpu-zz9-avx512-acme-2', max_attempts: 1 })).status).toBe(
      201,
    );
    expect((await create({ problem_name: '19_ReLU', device: 'cpu-zz', max_attempts: 1 })).status).toBe(422);
  });

  test('a runner takes jobs queued under the generic id its device extends, unless a runner announces that id', async () => {
    const named = (id: string) => ({ ...CPU, id, name: id });
    const runner = await registerRunner(app, [named('cpu-zz8-avx2-acme-1')], 'zz8');
    // A job queued under the old generic id (before devices were named by ISA class and model).
    const payload = {
      kind: 'attempt',
      target_id: '00000000-0000-0000-0000-000000000008',
      mode: 'benchmark',
      problem_name: '19_ReLU',
      device: 'cpu-zz8',
      language: 'c',
      source: 'void solution(){}',
    };
    const queued = await enqueueJob(app.ctx.db, { kind: 'evaluate', payload, device: 'cpu-zz8' });
    expect((await claim(app, runner, ['cpu-zz8-avx2-acme-1'], 1000))?.job_id).toBe(queued);
    // Once an (older) runner announces `cpu-zz8` itself, jobs queued under it are that runner's.
    const old = await registerRunner(app, [named('cpu-zz8')], 'zz8-old');
    const next = await enqueueJob(app.ctx.db, { kind: 'evaluate', payload, device: 'cpu-zz8' });
    expect(await claim(app, runner, ['cpu-zz8-avx2-acme-1'], 200)).toBeNull();
    expect((await claim(app, old, ['cpu-zz8'], 1000))?.job_id).toBe(next);
  });
});
