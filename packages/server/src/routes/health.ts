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
    {
      ...on,
      path: '/readyz',
      summary:
        'The database answers and its notifications (LISTEN) reach this replica: 503 with a detail otherwise (while it reconnects)',
      response: Health,
      errors: [503],
    },
    async (c) => {
      const health = ctx.db.health();
      if (!health.ok) return c.json({ detail: health.detail ?? 'Database unavailable' }, 503);
      try {
        await ctx.db.query('SELECT 1');
      } catch (err) {
        if (!ctx.db.outage(err, 'readiness check failed')) ctx.log.warn('readiness check failed', { err });
        return c.json({ detail: 'Database unavailable' }, 503);
      }
      // The query may have just found the database gone (a restart under way).
      const after = ctx.db.health();
      if (!after.ok) return c.json({ detail: after.detail ?? 'Database unavailable' }, 503);
      return { status: 'ok' };
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
