// Health, readiness, metrics, the 404/500 shapes, the OpenAPI document and the static fallback, through app.request().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.stop();
});

describe('health and platform endpoints', () => {
  it('answers /healthz and /readyz', async () => {
    const h = await app.request('/healthz');
    expect(h.status).toBe(200);
    expect(await h.json()).toEqual({ status: 'ok' });
    const r = await app.request('/readyz');
    expect(r.status).toBe(200);
  });

  it('counts requests per route pattern in /metrics', async () => {
    await app.request('/api/v1/tokens/00000000-0000-0000-0000-000000000000', {
      method: 'DELETE',
      token: app.admin.token,
    });
    const text = await (await app.request('/metrics', { token: app.metricsToken })).text();
    expect(text).toContain('kforge_http_requests_total{method="DELETE",route="/api/v1/tokens/:id",status="404"} 1');
    expect(text).toContain('kforge_http_request_duration_seconds_bucket{method="GET",route="/healthz",le="+Inf"}');
    expect(text).toMatch(/kforge_process_memory_bytes\{kind="rss"\} \d+/);
  });

  it('answers an unknown /api route with 404 {detail: "Not Found"}', async () => {
    const r = await app.request('/api/v1/no-such-thing');
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ detail: 'Not Found' });
    const a = await app.request('/auth/no-such-thing', { method: 'POST' });
    expect(a.status).toBe(404);
    expect(await a.json()).toEqual({ detail: 'Not Found' });
  });

  it('serves the OpenAPI document generated from the sdk schemas', async () => {
    const r = await app.request('/api/v1/openapi.json');
    expect(r.status).toBe(200);
    const doc = (await r.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const [path, method] of [
      ['/auth/login/access-token', 'post'],
      ['/auth/login/magic-link', 'post'],
      ['/auth/magic-link', 'post'],
      ['/auth/users/register/email-verification-token', 'post'],
      ['/auth/users/register', 'post'],
      ['/auth/login/google', 'post'],
      ['/auth/users/me', 'get'],
      ['/api/v1/settings', 'get'],
      ['/api/v1/tokens', 'get'],
      ['/api/v1/tokens', 'post'],
      ['/api/v1/tokens/{id}', 'delete'],
      ['/api/v1/admin/outbox', 'get'],
      ['/api/v1/users', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const docs = await app.request('/api/docs');
    expect(await docs.text()).toContain('/api/v1/openapi.json');
  });

  it('refuses bodies over the limit with 413', async () => {
    const r = await app.request('/auth/magic-link', {
      method: 'POST',
      json: { email: 'x'.repeat(5 * 1024 * 1024) },
    });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ detail: 'Request body too large' });
  });

  it('answers a 422 in FastAPI shape for a body that is not JSON', async () => {
    const r = await app.request('/auth/magic-link', {
      method: 'POST',
      body: '{nope',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(422);
    expect(await r.json()).toEqual({ detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }] });
  });
});

describe('when the database is gone', () => {
  it('answers a logged 500 {detail: "Internal Server Error"} that leaks nothing, and /readyz 503', async () => {
    const { captureLog } = await import('../helpers/log.js');
    const captured = captureLog();
    const broken = await createTestApp({ log: captured.log });
    try {
      const { token } = await broken.createUser();
      await broken.ctx.db.close();
      const r = await broken.request('/api/v1/tokens', { token });
      expect(r.status).toBe(500);
      expect(await r.json()).toEqual({ detail: 'Internal Server Error' });
      expect(captured.text()).toContain('unhandled error');
      const ready = await broken.request('/readyz');
      expect(ready.status).toBe(503);
      expect((await broken.request('/healthz')).status).toBe(200);
    } finally {
      await broken.stop();
    }
  });
});
