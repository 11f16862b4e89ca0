// Google sign-in against a local JWKS server that signs RS256 id_tokens the way Google does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JwksServer, startJwksServer } from '../helpers/jwks.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const CLIENT_ID = 'test-client.apps.googleusercontent.com';
let jwks: JwksServer;
let app: TestApp;
beforeAll(async () => {
  jwks = await startJwksServer({ audience: CLIENT_ID });
  app = await createTestApp({
    env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_JWKS_URL: jwks.jwksUrl, GOOGLE_ISSUER: jwks.issuer },
  });
});
afterAll(async () => {
  await app?.stop();
  await jwks?.close();
});

const google = (id_token: string, s: TestApp = app) =>
  s.request('/auth/login/google', { method: 'POST', json: { id_token } });

describe('POST /auth/login/google', () => {
  it('creates the account on first sign-in and signs the same account in afterwards', async () => {
    const idToken = await jwks.sign({ email: 'googler@kforge.test', email_verified: true, name: 'Goo Gler' });
    const first = await google(idToken);
    expect(first.status).toBe(200);
    const { access_token } = (await first.json()) as { access_token: string };
    const me = (await (await app.request('/auth/users/me', { token: access_token })).json()) as {
      id: string;
      email: string;
      full_name: string;
    };
    expect(me).toMatchObject({ email: 'googler@kforge.test', full_name: 'Goo Gler' });

    const again = await google(await jwks.sign({ email: 'googler@kforge.test', email_verified: true }));
    const token2 = ((await again.json()) as { access_token: string }).access_token;
    const me2 = (await (await app.request('/auth/users/me', { token: token2 })).json()) as { id: string };
    expect(me2.id).toBe(me.id);
  });

  it('accepts the issuer without its scheme, as Google sometimes sends it', async () => {
    const r = await google(
      await jwks.sign({ email: 'bare-iss@kforge.test', email_verified: true }, { issuer: 'accounts.google.com' }),
    );
    expect(r.status).toBe(200);
  });

  it.each([
    ['another audience', { audience: 'someone-else' }, {}],
    ['another issuer', { issuer: 'https://evil.example' }, {}],
    ['a key Google did not publish', { foreignKey: true }, {}],
    ['an expired token', { expiresIn: Math.floor(Date.now() / 1000) - 60 }, {}],
    ['an unverified address', {}, { email_verified: false }],
  ])('refuses %s with 400', async (_name, opts, claims) => {
    const idToken = await jwks.sign({ email: 'mallory@kforge.test', email_verified: true, ...claims }, opts);
    const r = await google(idToken);
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ detail: 'Invalid Google credentials' });
  });

  it('answers 400 for garbage and 422 for a missing id_token', async () => {
    expect((await google('garbage')).status).toBe(400);
    expect((await app.request('/auth/login/google', { method: 'POST', json: {} })).status).toBe(422);
  });

  it('answers 400 when Google sign-in is not configured, and settings say so', async () => {
    const plain = await createTestApp();
    try {
      const r = await google(await jwks.sign({ email: 'x@kforge.test', email_verified: true }), plain);
      expect(r.status).toBe(400);
      const settings = (await (await plain.request('/api/v1/settings')).json()) as { google_client_id: unknown };
      expect(settings.google_client_id).toBeNull();
    } finally {
      await plain.stop();
    }
    const settings = (await (await app.request('/api/v1/settings')).json()) as { google_client_id: unknown };
    expect(settings.google_client_id).toBe(CLIENT_ID);
  });
});
