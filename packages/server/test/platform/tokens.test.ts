// API tokens: created (shown once), used as bearer tokens anywhere, listed without secrets, expired and revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

interface Created {
  id: string;
  name: string;
  prefix: string;
  token: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

async function create(token: string, body: unknown): Promise<Created> {
  const r = await app.request('/api/v1/tokens', { method: 'POST', token, json: body });
  expect(r.status).toBe(201);
  return (await r.json()) as Created;
}

describe('API tokens', () => {
  it('creates a kf_ token shown once, usable as a bearer token, listed without the secret', async () => {
    const { token: jwt } = await app.createUser();
    const created = await create(jwt, { name: 'ci' });
    expect(created.token).toMatch(/^kf_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.token.slice(0, 7));
    expect(created).toMatchObject({ name: 'ci', last_used_at: null, expires_at: null });

    const me = await app.request('/auth/users/me', { token: created.token });
    expect(me.status).toBe(200);

    const list = await app.request('/api/v1/tokens', { token: created.token });
    const body = (await list.json()) as { data: Array<Record<string, unknown>>; count: number };
    expect(body.count).toBe(1);
    expect(body.data[0]).toMatchObject({ id: created.id, name: 'ci', prefix: created.prefix });
    expect(body.data[0]?.last_used_at).not.toBeNull();
    expect(Object.keys(body.data[0] ?? {}).sort()).toEqual([
      'created_at',
      'expires_at',
      'id',
      'last_used_at',
      'name',
      'prefix',
      'scopes',
    ]);
    expect(body.data[0]?.scopes).toEqual(['read', 'submit', 'sessions', 'tokens']);
    expect(JSON.stringify(body)).not.toContain(created.token);

    const stored = await app.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM api_tokens WHERE id = $1', [
      created.id,
    ]);
    expect(stored[0]?.token_hash).not.toContain(created.token.slice(3));
  });

  it('sets an expiry from expires_in_days, and an expired token answers 401', async () => {
    const { token: jwt } = await app.createUser();
    const created = await create(jwt, { name: 'short', expires_in_days: 1 });
    const expires = Date.parse(created.expires_at ?? '');
    expect(Math.abs(expires - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    expect((await app.request('/auth/users/me', { token: created.token })).status).toBe(200);
    await app.ctx.db.query("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [
      created.id,
    ]);
    const r = await app.request('/auth/users/me', { token: created.token });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ detail: 'Could not validate credentials' });
  });

  it('revokes a token: 401 from then on, gone from the list, and a second revoke is 404', async () => {
    const { token: jwt } = await app.createUser();
    const created = await create(jwt, { name: 'revoke-me' });
    const del = await app.request(`/api/v1/tokens/${created.id}`, { method: 'DELETE', token: jwt });
    expect(del.status).toBe(200);
    expect((await app.request('/auth/users/me', { token: created.token })).status).toBe(401);
    const list = (await (await app.request('/api/v1/tokens', { token: jwt })).json()) as { count: number };
    expect(list.count).toBe(0);
    expect((await app.request(`/api/v1/tokens/${created.id}`, { method: 'DELETE', token: jwt })).status).toBe(404);
  });

  it("answers 404 for another user's token id and leaves it working", async () => {
    const alice = await app.createUser();
    const bob = await app.createUser();
    const created = await create(alice.token, { name: 'alice' });
    const r = await app.request(`/api/v1/tokens/${created.id}`, { method: 'DELETE', token: bob.token });
    expect(r.status).toBe(404);
    expect((await app.request('/auth/users/me', { token: created.token })).status).toBe(200);
    const bobs = (await (await app.request('/api/v1/tokens', { token: bob.token })).json()) as { count: number };
    expect(bobs.count).toBe(0);
    expect((await app.request('/api/v1/tokens/not-a-uuid', { method: 'DELETE', token: bob.token })).status).toBe(404);
  });

  it('answers 401 without a token, and for an unknown kf_ token', async () => {
    expect((await app.request('/api/v1/tokens')).status).toBe(401);
    expect((await app.request('/api/v1/tokens', { token: 'kf_unknown' })).status).toBe(401);
  });

  it('validates the body: 422 for an empty name or a bad expiry', async () => {
    const { token } = await app.createUser();
    for (const body of [
      { name: '' },
      { name: '   ' },
      {},
      { name: 'x', expires_in_days: 0 },
      { name: 'x', expires_in_days: 1.5 },
    ]) {
      const r = await app.request('/api/v1/tokens', { method: 'POST', token, json: body });
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
  });
});
