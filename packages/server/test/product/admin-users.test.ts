// The admin's routes beside 'All sessions': search users, make or unmake superusers, deactivate accounts (never
// one's own), the runners, devices and job queue at a glance, and the review queue of flagged results.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { startTestServer, type TestTarget } from '../helpers/server.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

const get = async (path: string, token: string, target: TestTarget = app) => {
  const res = await target.request(path, { token });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { data?: unknown[] } };
};
const patch = async (path: string, token: string, json: unknown) => {
  const res = await app.request(path, { method: 'PATCH', token, json });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('users, for superusers', () => {
  it('searches users by email or name, with LIKE wildcards taken literally', async () => {
    const ada = await app.createUser({ full_name: 'Ada Searchable' });
    await app.createUser();
    const byName = await get('/api/v1/users?q=searchABLE', app.admin.token);
    expect(byName.status).toBe(200);
    expect((byName.body.data as { id: string }[]).map((u) => u.id)).toEqual([ada.user.id]);
    const byEmail = await get(`/api/v1/users?q=${encodeURIComponent(ada.user.email.slice(0, 12))}`, app.admin.token);
    expect((byEmail.body.data as { id: string }[]).map((u) => u.id)).toContain(ada.user.id);
    expect((await get('/api/v1/users?q=%25', app.admin.token)).body.count).toBe(0);
    expect((await get('/api/v1/users?q=x', ada.token)).status).toBe(403);
  });

  it('makes a superuser, deactivates an account, and refuses to act on oneself', async () => {
    const bob = await app.createUser();
    expect((await get('/api/v1/users', bob.token)).status).toBe(403);
    const up = await patch(`/api/v1/users/${bob.user.id}`, app.admin.token, { is_superuser: true });
    expect(up.status).toBe(200);
    expect(up.body.is_superuser).toBe(true);
    expect((await get('/api/v1/users', bob.token)).status).toBe(200);

    const off = await patch(`/api/v1/users/${bob.user.id}`, app.admin.token, { is_active: false });
    expect(off.body.is_active).toBe(false);
    expect((await app.request('/auth/users/me', { token: bob.token })).status).toBe(401);
    await patch(`/api/v1/users/${bob.user.id}`, app.admin.token, { is_active: true });
    expect((await app.request('/auth/users/me', { token: bob.token })).status).toBe(200);

    const me = (await get('/auth/users/me', app.admin.token)).body as { id: string };
    const self = await patch(`/api/v1/users/${me.id}`, app.admin.token, { is_superuser: false });
    expect(self.status).toBe(422);
    expect(JSON.stringify(self.body.detail)).toContain('ask another superuser');
    expect((await patch(`/api/v1/users/${bob.user.id}`, app.admin.token, {})).status).toBe(422);
    expect(
      (await patch('/api/v1/users/00000000-0000-4000-8000-000000000000', app.admin.token, { is_active: true })).status,
    ).toBe(404);
    // /users/me is still the user's own display name, not a user called "me".
    const name = await patch('/api/v1/users/me', bob.token, { display_name: 'Bob' });
    expect(name.status).toBe(200);
    expect(name.body.display_name).toBe('Bob');
  });
});

describe('runner and queue status', () => {
  // The one check here that needs the in-process runner running (started with the server's background work).
  it('lists the runners, the devices, the queue by kind and status and the jobs in flight', async () => {
    const server = await startTestServer({ localRunner: true });
    onTestFinished(() => server.stop());
    const user = await server.createUser();
    expect((await get('/api/v1/admin/status', user.token, server)).status).toBe(403);
    const { status, body } = await get('/api/v1/admin/status', server.admin.token, server);
    expect(status).toBe(200);
    const runners = body.runners as { local: boolean; devices: string[] }[];
    // The local runner's cpu device, named by architecture, ISA class and model (cpu-x86_64-avx2-..., cpu-arm64-...).
    const cpuId = (body.devices as { id: string; kind: string }[]).find((d) => d.kind === 'cpu')?.id ?? '';
    expect(cpuId).toMatch(/^cpu-[a-z0-9_]+-[a-z0-9]+(-[a-z0-9-]+)?$/);
    expect(runners.some((r) => r.local && r.devices.includes(cpuId))).toBe(true);
    expect(body.devices).toContainEqual(expect.objectContaining({ id: cpuId, available: true }));
    expect(Array.isArray(body.queue)).toBe(true);
    expect(Array.isArray(body.in_flight)).toBe(true);
  });
});

describe('the review queue', () => {
  async function flagged(userId: string, timeMs: number): Promise<string> {
    const rows = await app.ctx.db.query<{ id: string }>(
      `INSERT INTO submissions (user_id, problem_name, device, language, source, status, verdict, time_ms, speedup,
         flagged_for_review, evaluation_state, finished_at)
       VALUES ($1, '20_LeakyReLU', 'cpu-x86_64', 'c', 'void solution(){}', 'completed', 'accepted', $2, 50, true, $3, now())
       RETURNING id`,
      [userId, timeMs, { benchmarking_result: { review_reasons: ['speedup 50x is over 10x'] } }],
    );
    return (rows[0] as { id: string }).id;
  }
  const board = async (token: string) =>
    (
      (await get('/api/v1/leaderboard/20_LeakyReLU', token)).body as unknown as {
        entries: { submission_id: string; flagged_for_review: boolean; rank: number }[];
      }
    ).entries;

  it('approves a flagged result into the ranking and rejects another with its reason kept', async () => {
    const honest = await app.createUser();
    const fast = await app.createUser();
    const cheat = await app.createUser();
    await app.ctx.db.query(
      `INSERT INTO submissions (user_id, problem_name, device, language, source, status, verdict, time_ms, speedup,
         finished_at) VALUES ($1, '20_LeakyReLU', 'cpu-x86_64', 'c', 'x', 'completed', 'accepted', 5, 1.2, now())`,
      [honest.user.id],
    );
    const good = await flagged(fast.user.id, 0.1);
    const bad = await flagged(cheat.user.id, 0.01);

    expect((await get('/api/v1/admin/reviews', fast.token)).status).toBe(403);
    const pending = await get('/api/v1/admin/reviews', app.admin.token);
    expect((pending.body.data as { submission_id: string }[]).map((r) => r.submission_id)).toEqual(
      expect.arrayContaining([good, bad]),
    );
    expect(pending.body.data?.[0]).toMatchObject({ status: 'pending', review_reasons: ['speedup 50x is over 10x'] });
    const before = await board(honest.token);
    expect(before.find((e) => e.submission_id === good)?.flagged_for_review).toBe(true);

    const noReason = await app.request(`/api/v1/admin/reviews/${bad}`, {
      method: 'POST',
      token: app.admin.token,
      json: { decision: 'reject' },
    });
    expect(noReason.status).toBe(422);
    const approve = await app.request(`/api/v1/admin/reviews/${good}`, {
      method: 'POST',
      token: app.admin.token,
      json: { decision: 'approve' },
    });
    expect(approve.status).toBe(200);
    const reject = await app.request(`/api/v1/admin/reviews/${bad}`, {
      method: 'POST',
      token: app.admin.token,
      json: { decision: 'reject', reason: 'times the cache, not the kernel' },
    });
    expect(((await reject.json()) as { status: string; decision_reason: string }).decision_reason).toBe(
      'times the cache, not the kernel',
    );

    const after = await board(honest.token);
    expect(after.find((e) => e.submission_id === good)).toMatchObject({ flagged_for_review: false, rank: 1 });
    expect(after.some((e) => e.submission_id === bad)).toBe(false);
    const decided = await get('/api/v1/admin/reviews?status=decided', app.admin.token);
    expect(decided.body.data).toContainEqual(
      expect.objectContaining({
        submission_id: bad,
        status: 'rejected',
        decision_reason: 'times the cache, not the kernel',
      }),
    );
    expect(
      (
        await app.request('/api/v1/admin/reviews/00000000-0000-4000-8000-000000000000', {
          method: 'POST',
          token: app.admin.token,
          json: { decision: 'approve' },
        })
      ).status,
    ).toBe(404);
  });
});
