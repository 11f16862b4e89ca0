// Password sign-in, the current user, and every way a bearer token can be refused.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

const login = (form: Record<string, string>) =>
  app.request('/auth/login/access-token', { method: 'POST', body: new URLSearchParams(form) });

describe('POST /auth/login/access-token', () => {
  it('signs the configured superuser in with form data and /auth/users/me shows them', async () => {
    const r = await login({ username: app.admin.email, password: app.admin.password });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe('bearer');
    const me = await app.request('/auth/users/me', { token: body.access_token });
    expect(me.status).toBe(200);
    const user = (await me.json()) as Record<string, unknown>;
    expect(user).toMatchObject({ email: app.admin.email, is_superuser: true, is_active: true, full_name: null });
    // The spec's fields, is_active, display_name (the name others see, which the user sets: issue 14) and handle
    // (the stored words shown where no name is set: issue 23), has_password (whether a password is set: issue 35
    // item 11) and mail_results (the result-mail setting: issue 35 item 4).
    expect(Object.keys(user).sort()).toEqual([
      'created_at',
      'display_name',
      'email',
      'full_name',
      'handle',
      'has_password',
      'id',
      'is_active',
      'is_superuser',
      'mail_results',
    ]);
    expect(user.has_password).toBe(true);
    expect(user.display_name).toBeNull();
  });

  it('accepts multipart form data and a differently-cased email', async () => {
    const { user } = await app.createUser({ email: 'Mixed@Kforge.test', password: 'correct horse' });
    expect(user.email).toBe('mixed@kforge.test');
    const form = new FormData();
    form.set('username', 'MIXED@kforge.test');
    form.set('password', 'correct horse');
    const r = await app.request('/auth/login/access-token', { method: 'POST', body: form });
    expect(r.status).toBe(200);
  });

  it('answers 400 "Incorrect email or password" for a wrong password and for an unknown address alike', async () => {
    const wrong = await login({ username: app.admin.email, password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ detail: 'Incorrect email or password' });
    const unknown = await login({ username: 'nobody@kforge.test', password: 'whatever1' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ detail: 'Incorrect email or password' });
  });

  it('refuses a password login for an account that has no password', async () => {
    const { user } = await app.createUser();
    const r = await login({ username: user.email, password: 'anything-at-all' });
    expect(r.status).toBe(400);
  });

  it('answers 400 "Inactive user" for a deactivated account', async () => {
    const { user } = await app.createUser({ password: 'inactive-pw' });
    await app.ctx.db.query('UPDATE users SET is_active = false WHERE id = $1', [user.id]);
    const r = await login({ username: user.email, password: 'inactive-pw' });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ detail: 'Inactive user' });
  });

  it('answers 422 with FastAPI-shaped issues when a field is missing (empty values count as missing)', async () => {
    const r = await login({ username: app.admin.email, password: '' });
    expect(r.status).toBe(422);
    const body = (await r.json()) as { detail: Array<{ loc: unknown[]; msg: string; type: string }> };
    expect(body.detail[0]?.loc).toEqual(['body', 'password']);
    expect(typeof body.detail[0]?.msg).toBe('string');
    expect(typeof body.detail[0]?.type).toBe('string');
  });
});

describe('bearer tokens on GET /auth/users/me', () => {
  const CREDENTIALS = { detail: 'Could not validate credentials' };

  it('answers 401 without a token', async () => {
    const r = await app.request('/auth/users/me');
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual(CREDENTIALS);
  });

  it('answers 401 for a malformed token', async () => {
    const r = await app.request('/auth/users/me', { token: 'not.a.jwt' });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual(CREDENTIALS);
  });

  it('answers 401 for an expired access token', async () => {
    const { user } = await app.createUser();
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt(past - 60)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode(app.ctx.config.secret));
    const r = await app.request('/auth/users/me', { token: expired });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual(CREDENTIALS);
  });

  it('answers 401 for a token signed with another secret', async () => {
    const { user } = await app.createUser();
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('some-other-secret-entirely'));
    expect((await app.request('/auth/users/me', { token: forged })).status).toBe(401);
  });

  it('answers 401 once the account is deleted', async () => {
    const { user, token } = await app.createUser();
    expect((await app.request('/auth/users/me', { token })).status).toBe(200);
    await app.ctx.db.query('DELETE FROM users WHERE id = $1', [user.id]);
    expect((await app.request('/auth/users/me', { token })).status).toBe(401);
  });

  it('issues access tokens that expire after the configured 8 days', async () => {
    const r = await login({ username: app.admin.email, password: app.admin.password });
    const { access_token } = (await r.json()) as { access_token: string };
    const payload = JSON.parse(Buffer.from(access_token.split('.')[1] as string, 'base64url').toString()) as Record<
      string,
      number
    >;
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(8 * 86_400);
    expect(typeof payload.sub).toBe('string');
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After after too many sign-in attempts', async () => {
    const limited = await createTestApp({ env: { KFORGE_SIGNIN_PER_MINUTE: '3' } });
    try {
      const attempt = () =>
        limited.request('/auth/login/access-token', {
          method: 'POST',
          body: new URLSearchParams({ username: 'x@kforge.test', password: 'nope-nope' }),
        });
      for (let i = 0; i < 3; i++) expect((await attempt()).status).toBe(400);
      const r = await attempt();
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await r.json()) as { detail: string }).detail).toMatch(/Too many/);
    } finally {
      await limited.stop();
    }
  });
});
