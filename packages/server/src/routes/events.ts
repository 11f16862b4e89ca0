// SSE: GET /api/v1/agent-session/{id}/events streams a session's events live, resuming after Last-Event-ID.
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { type AppEnv, authenticate, CREDENTIALS_DETAIL } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { registerRoute } from '../http/openapi.js';
import { parseParams } from '../http/validate.js';
import { productOf } from '../services/product.js';
import { ownSession } from '../sessions/queries.js';
import type { StoredEvent } from '../events/bus.js';

const IdParam = z.object({ id: z.string() });

export function mountEventRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const p = productOf(ctx);

  registerRoute({
    method: 'get',
    path: '/api/v1/agent-session/{id}/events',
    summary: "A session's live events (SSE); resumes after Last-Event-ID. EventSource clients may pass ?access_token=",
    tags: ['agent-session'],
    auth: 'user',
    request: { params: IdParam },
    contentType: 'text/event-stream',
    errors: [404],
  });
  api.get('/agent-session/:id/events', async (c) => {
    const { id } = parseParams(c, IdParam);
    // EventSource cannot set headers, so the token may come as a query parameter instead.
    const queryToken = c.req.query('access_token');
    const header = c.req.header('Authorization') ?? (queryToken ? `Bearer ${queryToken}` : undefined);
    const found = await authenticate(ctx, header);
    if (!found) throw new HttpError(401, CREDENTIALS_DETAIL, { 'WWW-Authenticate': 'Bearer' });
    await ownSession(p.sql, found.user, id);

    const resume = c.req.header('Last-Event-ID') ?? c.req.query('last_event_id');
    const after = resume && /^\d+$/.test(resume) ? Number(resume) : await p.bus.lastEventId(id);

    return streamSSE(c, async (stream) => {
      let chain = Promise.resolve();
      const send = (e: StoredEvent) => {
        chain = chain
          .then(() => stream.writeSSE({ id: String(e.id), event: e.event.type, data: JSON.stringify(e.event) }))
          .catch(() => {});
      };
      await stream.write(': connected\n\n');
      const unsubscribe = await p.bus.subscribe(id, after, send);
      // Proxies drop idle connections; a comment line now and then (15 s by default) keeps this one open.
      const keepAlive = setInterval(() => {
        chain = chain
          .then(() => stream.write(': keep-alive\n\n'))
          .then(() => undefined)
          .catch(() => {});
      }, ctx.config.sessions.sseKeepAliveMs);
      await new Promise<void>((resolve) => {
        stream.onAbort(() => resolve());
        c.req.raw.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      clearInterval(keepAlive);
      unsubscribe();
    });
  });
}
