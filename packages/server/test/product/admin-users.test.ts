// The admin's routes beside 'All sessions': search users, make or unmake superusers, deactivate accounts (never
// one's own), and the runners, devices and job queue at a glance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ localRunner: true });
});
afterAll(async () => {
  await server?.stop();
});

const get = async (path: string, token: string) => {
  const res = await server.request(path, { token });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { data?: unknown[] } };
};
const patch = async (path: string, token: string, json: unknown) => {
  const res = await server.request(path, { method: 'PATCH', token, json });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('users, for superusers', () => {
  it('searches users by email or name, with LIKE wildcards taken literally', async () => {
    const ada = await server.createUser({ full_name: 'Ada Searchable' });
    await server.createUser();
    const byName = await get('/api/v1/users?q=searchABLE', server.admin.token);
    expect(byName.status).toBe(200);
    expect((byName.body.data as { id: string }[]).map((u) => u.id)).toEqual([ada.user.id]);
    const byEmail = await get(`/api/v1/users?q=${encodeURIComponent(ada.user.email.slice(0, 12))}`, server.admin.token);
    expect((byEmail.body.data as { id: string }[]).map((u) => u.id)).toContain(ada.user.id);
    expect((await get('/api/v1/users?q=%25', server.admin.token)).body.count).toBe(0);
    expect((await get('/api/v1/users?q=x', ada.token)).status).toBe(403);
  });

  it('makes a superuser, deactivates an account, and refuses to act on oneself', async () => {
    const bob = await server.createUser();
    expect((await get('/api/v1/users', bob.token)).status).toBe(403);
    const up = await patch(`/api/v1/users/${bob.user.id}`, server.admin.token, { is_superuser: true });
    expect(up.status).toBe(200);
    expect(up.body.is_superuser).toBe(true);
    expect((await get('/api/v1/users', bob.token)).status).toBe(200);

    const off = await patch(`/api/v1/users/${bob.user.id}`, server.admin.token, { is_active: false });
    expect(off.body.is_active).toBe(false);
    expect((await server.request('/auth/users/me', { token: bob.token })).status).toBe(401);
    await patch(`/api/v1/users/${bob.user.id}`, server.admin.token, { is_active: true });
    expect((await server.request('/auth/users/me', { token: bob.token })).status).toBe(200);

    const me = (await get('/auth/users/me', server.admin.token)).body as { id: string };
    const self = await patch(`/api/v1/users/${me.id}`, server.admin.token, { is_superuser: false });
    expect(self.status).toBe(422);
    expect(JSON.stringify(self.body.detail)).toContain('ask another superuser');
    expect((await patch(`/api/v1/users/${bob.user.id}`, server.admin.token, {})).status).toBe(422);
    expect(
      (await patch('/api/v1/users/00000000-0000-4000-8000-000000000000', server.admin.token, { is_active: true }))
        .status,
    ).toBe(404);
    // /users/me is still the user's own display name, not a user called "me".
    const name = await patch('/api/v1/users/me', bob.token, { display_name: 'Bob' });
    expect(name.status).toBe(200);
    expect(name.body.display_name).toBe('Bob');
  });
});

describe('runner and queue status', () => {
  it('lists the runners, the devices, the queue by kind and status and the jobs in flight', async () => {
    const user = await server.createUser();
    expect((await get('/api/v1/admin/status', user.token)).status).toBe(403);
    const { status, body } = await get('/api/v1/admin/status', server.admin.token);
    expect(status).toBe(200);
    const runners = body.runners as { local: boolean; devices: string[] }[];
    expect(runners.some((r) => r.local && r.devices.includes('cpu-x86_64'))).toBe(true);
    expect(body.devices).toContainEqual(expect.objectContaining({ id: 'cpu-x86_64', available: true }));
    expect(Array.isArray(body.queue)).toBe(true);
    expect(Array.isArray(body.in_flight)).toBe(true);
  });
});
