// Liveness and readiness (no token, for load balancers) and Prometheus metrics (behind KFORGE_METRICS_TOKEN), outside /api.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { registerRoute } from '../http/openapi.js';

const Health = z.object({ status: z.string() });

export function mountHealthRoutes(app: Hono<AppEnv>, ctx: AppContext): void {
  registerRoute({
    method: 'get',
    path: '/healthz',
    summary: 'The process is up',
    tags: ['health'],
    auth: 'none',
    response: Health,
  });
  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  registerRoute({
    method: 'get',
    path: '/readyz',
    summary: 'The database answers (503 otherwise)',
    tags: ['health'],
    auth: 'none',
    response: Health,
    errors: [503],
  });
  app.get('/readyz', async (c) => {
    try {
      await ctx.db.query('SELECT 1');
      return c.json({ status: 'ok' });
    } catch (err) {
      ctx.log.warn('readiness check failed', { err });
      return c.json({ detail: 'Database unavailable' }, 503);
    }
  });

  registerRoute({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics; needs `Authorization: Bearer $KFORGE_METRICS_TOKEN` (404 while that is unset)',
    tags: ['health'],
    auth: 'none',
    contentType: 'text/plain',
    errors: [401, 404],
  });
  app.get('/metrics', async (c) => {
    const expected = ctx.config.metricsToken;
    if (!expected)
      throw new HttpError(404, 'Metrics are off: set KFORGE_METRICS_TOKEN and scrape with that bearer token');
    const sent = /^Bearer\s+(.+)$/i.exec(c.req.header('Authorization')?.trim() ?? '')?.[1] ?? '';
    // Compare digests: equal length, constant time, whatever was sent.
    if (!timingSafeEqual(digest(sent), digest(expected)))
      throw new HttpError(401, 'Send the metrics token: Authorization: Bearer $KFORGE_METRICS_TOKEN', {
        'WWW-Authenticate': 'Bearer',
      });
    return c.body(await ctx.metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
  });
}

const digest = (s: string) => createHash('sha256').update(s).digest();
