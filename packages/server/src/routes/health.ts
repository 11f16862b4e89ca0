// Liveness, readiness and Prometheus metrics, outside /api so load balancers and scrapers need no token.
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
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
    summary: 'Prometheus metrics',
    tags: ['health'],
    auth: 'none',
    contentType: 'text/plain',
  });
  app.get('/metrics', async (c) =>
    c.body(await ctx.metrics.render(), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' }),
  );
}
