// Builds the Hono app: platform routes, the product routes, the OpenAPI document and the web app; only main.ts listens.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppContext } from './context.js';
import type { AppEnv } from './http/auth.js';
import { compressResponses } from './http/compress.js';
import { HttpError, errorHandler } from './http/errors.js';
import { requestGuard } from './http/request-guard.js';
import { requestLog } from './http/request-log.js';
import { securityHeaders } from './http/security-headers.js';
import { mountAdminRoutes } from './routes/admin.js';
import { mountAuthRoutes } from './routes/auth.js';
import { mountDocsRoutes } from './routes/docs.js';
import { mountHealthRoutes } from './routes/health.js';
import { mountProductRoutes } from './routes/product.js';
import { mountSettingsRoutes } from './routes/settings.js';
import { mountStaticRoutes } from './routes/static.js';
import { mountTokenRoutes } from './routes/tokens.js';
import { mountUserRoutes } from './routes/users.js';

/** Request bodies above this are refused with 413 (sources and logs are far smaller). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export function createApp(ctx: AppContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(ctx.log, (err, what) => ctx.db.outage(err, what)));
  // First: every line logged while serving a request carries its id, and the access log sees the final status.
  app.use('*', requestLog({ log: ctx.log, access: ctx.config.accessLog, trustProxy: ctx.config.trustProxy }));
  app.use('*', securityHeaders(ctx.config));
  app.use('*', ctx.metrics.middleware());
  app.use('*', requestGuard());
  app.use('*', compressResponses());
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new HttpError(413, 'Request body too large');
    },
  });
  // GET and HEAD carry no body (@hono/node-server gives them none); asking makes the adapter build a whole WHATWG
  // Request, abort signal included, for every read (8% of a session GET's CPU in bench/README.md's profile).
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  mountHealthRoutes(app, ctx);
  mountAuthRoutes(app, ctx);

  // Everything under /api/v1 lives on one sub-app; the product engineer's routes mount there with relative paths.
  const api = new Hono<AppEnv>();
  mountSettingsRoutes(api, ctx);
  mountTokenRoutes(api, ctx);
  mountUserRoutes(api, ctx);
  mountAdminRoutes(api, ctx);
  mountProductRoutes(api, ctx);
  app.route('/api/v1', api);
  mountDocsRoutes(app, ctx);

  mountStaticRoutes(app, ctx);
  app.notFound((c) => c.json({ detail: 'Not Found' }, 404));
  return app;
}
