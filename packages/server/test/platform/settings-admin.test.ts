// Site settings, the superuser-only routes and their 401/403 answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({
    env: {
      POSTHOG_KEY: 'phc_test',
      POSTHOG_HOST: 'https://ph.example',
      KFORGE_TERMS_URL: 'https://kforge.test/terms',
      KFORGE_PRIVACY_URL: '',
    },
  });
});
afterAll(async () => {
  await app?.stop();
});

describe('GET /api/v1/settings', () => {
  it('answers without a token, from configuration (empty values count as unset)', async () => {
    const r = await app.request('/api/v1/settings');
    expect(r.status).toBe(200);
    const s = (await r.json()) as Record<string, unknown>;
    expect(s).toMatchObject({
      posthog_key: 'phc_test',
      posthog_host: 'https://ph.example',
      feedback_survey_id: null,
      waitlist_survey_id: null,
      google_client_id: null,
      page_urls: { terms_of_service: 'https://kforge.test/terms', privacy_policy: null, contact_us: null },
      auth_server: { url: '/auth', application_name: 'kernelforge' },
    });
    expect((s.agents as Array<{ provider: string }>).map((a) => a.provider)).toContain('tuner');
  });
});

describe('superuser routes', () => {
  const PRIVILEGES = { detail: "The user doesn't have enough privileges" };

  it.each(['/api/v1/admin/outbox', '/api/v1/users'])(
    '%s: 401 without a token, 403 for a user, 200 for a superuser',
    async (path) => {
      expect((await app.request(path)).status).toBe(401);
      const { token } = await app.createUser();
      const refused = await app.request(path, { token });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual(PRIVILEGES);
      const ok = await app.request(path, { token: app.admin.token });
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { data: unknown[]; count: number };
      expect(Array.isArray(body.data)).toBe(true);
      expect(typeof body.count).toBe('number');
    },
  );

  it('lists users with paging and never a password hash', async () => {
    await app.createUser({ password: 'secret-password' });
    const r = await app.request('/api/v1/users?limit=1&offset=0', { token: app.admin.token });
    const body = (await r.json()) as { data: Array<Record<string, unknown>>; count: number };
    expect(body.data.length).toBe(1);
    expect(body.count).toBeGreaterThanOrEqual(2);
    const all = await (await app.request('/api/v1/users', { token: app.admin.token })).text();
    expect(all).not.toMatch(/scrypt|hashed_password/);
    expect((await app.request('/api/v1/users?limit=abc', { token: app.admin.token })).status).toBe(422);
  });

  it('a second superuser made by create-user reaches admin routes', async () => {
    const { token } = await app.createUser({ is_superuser: true });
    expect((await app.request('/api/v1/admin/outbox', { token })).status).toBe(200);
  });
});
