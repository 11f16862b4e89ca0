// SSE: GET /api/v1/agent-session/{id}/events streams a session's events live, resuming after Last-Event-ID; tickets for EventSource.
import type { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { EVENT_TICKET_SECONDS, EventTicket, Text } from '@kernelforge/sdk';
import { findUserById, type AuthUser, withoutHash } from '../auth/users.js';
import { issueEventTicket, redeemEventTicket, StreamCounter } from '../events/tickets.js';
import { type AppEnv, authenticate, CREDENTIALS_DETAIL, currentUser, userGuards } from '../http/auth.js';
import { HttpError } from '../http/errors.js';
import { routeTable } from '../http/route.js';
import { ownSession } from '../domain/sessions/queries.js';
import type { StoredEvent } from '../events/bus.js';

const IdParam = z.object({ id: Text.max(100) });
const TicketQuery = z.object({ ticket: Text.max(200).optional(), last_event_id: Text.max(30).optional() });

export function mountEventRoutes(api: Hono<AppEnv>, ctx: AppContext): void {
  const streams = new StreamCounter(ctx.config.sessions.sseStreamsPerUser);

  const route = routeTable(api, '/api/v1', userGuards(ctx));

  route(
    {
      method: 'post',
      path: '/agent-session/{id}/events/ticket',
      summary: `A single-use ticket, valid ${EVENT_TICKET_SECONDS} s, to open this session's event stream as ?ticket= (for EventSource, which cannot send headers)`,
      tags: ['agent-session'],
      auth: 'user',
      params: IdParam,
      response: EventTicket,
      errors: [404],
    },
    async (c, { params }) => {
      const user = currentUser(c);
      const session = await ownSession(ctx.db, user, params.id);
      return issueEventTicket(ctx.db, user.id, session.id);
    },
  );

  route(
    {
      method: 'get',
      path: '/agent-session/{id}/events',
      summary:
        "A session's live events (SSE); resumes after Last-Event-ID. Send the bearer token in Authorization, or (EventSource) a ?ticket= from POST .../events/ticket",
      tags: ['agent-session'],
      auth: 'user',
      authenticatesItself: true,
      params: IdParam,
      query: TicketQuery,
      contentType: 'text/event-stream',
      errors: [404, 429],
    },
    async (c, { params: { id }, query: { ticket } }) => {
      let user: AuthUser;
      if (ticket !== undefined) {
        // A ticket instead of a bearer token: a URL that proxies log holds nothing reusable.
        const userId = await redeemEventTicket(ctx.db, ticket, id.toLowerCase());
        const found = userId ? await findUserById(ctx.db, userId) : null;
        if (!found?.is_active) throw new HttpError(401, 'Invalid or expired event ticket: ask for a new one');
        user = withoutHash(found);
      } else {
        const found = await authenticate(ctx, c.req.header('Authorization'), c.req);
        if (!found) throw new HttpError(401, CREDENTIALS_DETAIL, { 'WWW-Authenticate': 'Bearer' });
        user = found.user;
      }
      await ownSession(ctx.db, user, id);
      const release = streams.acquire(user.id);
      if (!release)
        throw new HttpError(
          429,
          `Too many open event streams (${ctx.config.sessions.sseStreamsPerUser}) for this user: close some pages or connections first`,
        );

      const resume = c.req.header('Last-Event-ID') ?? c.req.query('last_event_id');
      const after = resume && /^\d+$/.test(resume) ? Number(resume) : await ctx.bus.lastEventId(id);

      return streamSSE(c, async (stream) => {
        try {
          let chain = Promise.resolve();
          const send = (e: StoredEvent) => {
            chain = chain
              .then(() => stream.writeSSE({ id: String(e.id), event: e.event.type, data: JSON.stringify(e.event) }))
              .catch(() => {});
          };
          await stream.write(': connected\n\n');
          const unsubscribe = await ctx.bus.subscribe(id, after, send);
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
        } finally {
          release();
        }
      });
    },
  );
}
