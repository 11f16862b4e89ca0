// Liveness and readiness (no token, for load balancers) and Prometheus metrics (behind KFORGE_METRICS_TOKEN), outside /api.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { routeTable } from '../http/route.js';

const Health = z.object({ status: z.string() });

export function mountHealthRoutes(app: Hono<AppEnv>, ctx: AppContext): void {
  const route = routeTable(app, '', {});
  const on = { method: 'get', tags: ['health'], auth: 'none' } as const;

  route({ ...on, path: '/healthz', summary: 'The process is up', response: Health }, () => ({ status: 'ok' }));

  route(
    { ...on, path: '/readyz', summary: 'The database answers (503 otherwise)', response: Health, errors: [503] },
    async (c) => {
      try {
        await ctx.db.query('SELECT 1');
        return { status: 'ok' };
      } catch (err) {
        ctx.log.warn('readiness check failed', { err });
        return c.json({ detail: 'Database unavailable' }, 503);
      }
    },
  );

  route(
    {
      ...on,
      path: '/metrics',
      summary: 'Prometheus metrics; needs `Authorization: Bearer $KFORGE_METRICS_TOKEN` (404 while that is unset)',
      contentType: 'text/plain',
      errors: [401, 404],
    },
    async (c) => {
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
    },
  );
}

const digest = (s: string) => createHash('sha256').update(s).digest();
