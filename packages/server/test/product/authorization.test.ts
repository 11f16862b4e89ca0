// The authorization matrix: an owner, another user and a superuser against every product route.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { TestUser } from '../helpers/server.js';
import { CPU, json, registerRunner, createProductApp } from './helpers.js';

let app: TestApp;
let owner: TestUser;
let other: TestUser;
let sessionId: string;
let instructionId: string;
let submissionId: string;

beforeAll(async () => {
  app = await createProductApp();
  await registerRunner(app, [CPU]);
  owner = await app.createUser();
  other = await app.createUser();
  const s = await json<any>(
    app.request('/api/v1/agent-session', {
      method: 'POST',
      token: owner.token,
      json: { problem_name: '19_ReLU', device: CPU.id },
    }),
  );
  sessionId = s.body.id;
  instructionId = s.body.user_instructions[0].id;
  const sub = await json<any>(
    app.request('/api/v1/submission', {
      method: 'POST',
      token: owner.token,
      json: { problem_name: '19_ReLU', device: CPU.id, language: 'c', source: 'void solution(){}' },
    }),
  );
  submissionId = sub.body.id;
});
afterAll(() => app?.stop());

type Route = { method: string; path: () => string; json?: unknown; notFound: string };

// Routes on someone's own resources: another user must not learn they exist.
const owned: Route[] = [
  { method: 'GET', path: () => `/agent-session/${sessionId}`, notFound: 'Session not found' },
  { method: 'PATCH', path: () => `/agent-session/${sessionId}`, json: { label: 'x' }, notFound: 'Session not found' },
  { method: 'GET', path: () => `/agent-session/${sessionId}/best-attempt`, notFound: 'Session not found' },
  { method: 'GET', path: () => `/agent-session/${sessionId}/progress`, notFound: 'Session not found' },
  {
    method: 'POST',
    path: () => `/agent-session/${sessionId}/attempt`,
    json: { instruction: 'more', max_attempts: 1 },
    notFound: 'Session not found',
  },
  { method: 'POST', path: () => `/agent-session/${sessionId}/stop`, notFound: 'Session not found' },
  { method: 'DELETE', path: () => `/agent-session/${sessionId}`, notFound: 'Session not found' },
  { method: 'POST', path: () => `/agent-session/${sessionId}/restore`, notFound: 'Session not found' },
  {
    method: 'PATCH',
    path: () => `/agent-session/instruction/${instructionId}`,
    json: { name: 'n' },
    notFound: 'Instruction not found',
  },
  { method: 'POST', path: () => `/agent-session/instruction/${instructionId}/star`, notFound: 'Instruction not found' },
  {
    method: 'DELETE',
    path: () => `/agent-session/instruction/${instructionId}/star`,
    notFound: 'Instruction not found',
  },
  { method: 'POST', path: () => `/agent-session/instruction/${instructionId}/stop`, notFound: 'Instruction not found' },
  { method: 'DELETE', path: () => `/agent-session/instruction/${instructionId}`, notFound: 'Instruction not found' },
  {
    method: 'POST',
    path: () => `/agent-session/instruction/${instructionId}/restore`,
    notFound: 'Instruction not found',
  },
  { method: 'GET', path: () => `/agent-session/${sessionId}/events`, notFound: 'Session not found' },
  // Not accepted, so not on any leaderboard: private to its owner.
  { method: 'GET', path: () => `/leaderboard/submission/${submissionId}`, notFound: 'Submission not found' },
];

const call = async (token: string, r: Route) => {
  const res = await app.request(`/api/v1${r.path()}`, {
    method: r.method,
    token,
    ...(r.json ? { json: r.json } : {}),
  });
  if (res.headers.get('content-type')?.includes('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: null };
  }
  return json<any>(res);
};

test('another user gets 404 on every owned resource, with no hint it exists', async () => {
  for (const r of owned) {
    const { status, body } = await call(other.token, r);
    expect([r.method, r.path(), status]).toEqual([r.method, r.path(), 404]);
    expect(body).toEqual({ detail: r.notFound });
  }
});

test('the owner and a superuser reach every owned resource', async () => {
  for (const token of [owner.token, app.admin.token]) {
    for (const r of owned) {
      const { status } = await call(token, r);
      expect([r.method, r.path(), status < 300]).toEqual([r.method, r.path(), true]);
    }
  }
});

test("lists show only the caller's own items", async () => {
  const sessions = await json<any>(app.request('/api/v1/agent-session', { token: other.token }));
  expect(sessions.body).toEqual({ data: [], count: 0 });
  const subs = await json<any>(app.request('/api/v1/submission', { token: other.token }));
  expect(subs.body).toEqual({ data: [], count: 0 });
});

test('/agent-session/all: 403 for users, filters for superusers, 401 anonymous', async () => {
  expect((await json<any>(app.request('/api/v1/agent-session/all', { token: owner.token }))).body).toEqual({
    detail: "The user doesn't have enough privileges",
  });
  expect((await json(app.request('/api/v1/agent-session/all', { token: other.token }))).status).toBe(403);
  expect((await json(app.request('/api/v1/agent-session/all'))).status).toBe(401);
  const all = await json<any>(
    app.request(`/api/v1/agent-session/all?owner_id=${owner.user.id}&problem_name=19_ReLU`, {
      token: app.admin.token,
    }),
  );
  expect(all.status).toBe(200);
  expect(all.body.count).toBe(1);
  expect(all.body.data[0].id).toBe(sessionId);
  const none = await json<any>(
    app.request(`/api/v1/agent-session/all?owner_id=${other.user.id}`, { token: app.admin.token }),
  );
  expect(none.body.count).toBe(0);
  const bogus = await json<any>(app.request('/api/v1/agent-session/all?owner_id=nope', { token: app.admin.token }));
  expect(bogus.body.count).toBe(0);
});

test('no product response carries secret seeds, token hashes or hidden sizes', async () => {
  const seeds = await app.ctx.db.query<{ seed: string }>('SELECT seed FROM leaderboard_seeds');
  expect(seeds.length).toBeGreaterThan(0);
  const bodies = await Promise.all(
    [
      '/agent-session',
      `/agent-session/${sessionId}`,
      '/submission',
      `/leaderboard/submission/${submissionId}`,
      '/problems',
      '/problems/19_ReLU',
      '/leaderboard',
      '/devices',
    ].map(async (p) => (await app.request(`/api/v1${p}`, { token: owner.token })).text()),
  );
  for (const text of bodies) {
    for (const { seed } of seeds) expect(text).not.toContain(seed);
    expect(text).not.toContain('secret_seed');
    expect(text).not.toContain('hashed_password');
    expect(text).not.toContain('token_hash');
    expect(text).not.toMatch(/"ranked"\s*:/);
  }
});
