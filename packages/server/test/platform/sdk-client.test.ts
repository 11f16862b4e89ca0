// The platform routes through the sdk's own client (its fetch answered by app.request()), so every response is checked
// against the contract's schemas.
import {
  AuthenticationError,
  BadRequestError,
  createClient,
  NotFoundError,
  PermissionDeniedError,
  UnprocessableEntityError,
} from '@kernelforge/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastMailTo, tokenFromLink } from '../helpers/mail.js';
import { createTestApp, TEST_APP_ORIGIN, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('through the sdk client', () => {
  it('registers, signs in by magic link and by password, and manages API tokens', async () => {
    const client = createClient({ baseUrl: TEST_APP_ORIGIN, fetch: app.fetch, maxRetries: 0 });
    const email = 'sdk-user@kforge.test';
    await client.auth.requestEmailVerification({ email, password: 'sdk-password', full_name: 'Sdk User' });
    const verify = tokenFromLink((await lastMailTo(app, email)).text, 'verify-email');
    const registered = await client.auth.register({ email_verification_token: verify });
    expect(registered.user.email).toBe(email);
    expect((await client.auth.me()).full_name).toBe('Sdk User');

    await client.auth.requestMagicLink({ email });
    const magic = tokenFromLink((await lastMailTo(app, email)).text, 'magic-link-login');
    await client.auth.loginWithMagicLink({ token: magic });
    await expect(client.auth.loginWithMagicLink({ token: magic })).rejects.toBeInstanceOf(BadRequestError);
    await client.auth.loginWithPassword({ username: email, password: 'sdk-password' });
    await expect(client.auth.loginWithPassword({ username: email, password: 'wrong-password' })).rejects.toBeInstanceOf(
      BadRequestError,
    );

    const created = await client.tokens.create({ name: 'laptop', expires_in_days: 30 });
    const withApiToken = createClient({
      baseUrl: TEST_APP_ORIGIN,
      fetch: app.fetch,
      token: created.token,
      maxRetries: 0,
    });
    expect((await withApiToken.auth.me()).email).toBe(email);
    expect((await withApiToken.tokens.list()).data.map((t) => t.name)).toEqual(['laptop']);
    await client.tokens.revoke(created.id);
    await expect(withApiToken.tokens.list()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.tokens.revoke(created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.tokens.create({ name: '' })).rejects.toBeInstanceOf(UnprocessableEntityError);

    await expect(client.admin.outbox()).rejects.toBeInstanceOf(PermissionDeniedError);
    const settings = await client.settings.get();
    expect(settings.auth_server.application_name).toBe('kernelforge');
  });

  it('lets a superuser read the outbox and the users', async () => {
    const admin = createClient({ baseUrl: TEST_APP_ORIGIN, fetch: app.fetch, token: app.admin.token, maxRetries: 0 });
    expect((await admin.admin.outbox()).count).toBeGreaterThanOrEqual(2);
    const users = await admin.admin.users({ limit: 10 });
    expect(users.data.some((u) => u.is_superuser)).toBe(true);
  });
});
