// Request ids and the access log: each request gets an id (the caller's X-Request-Id when it is a sane token, else a
// new one), returned in X-Request-Id and carried by every log line written while serving it; one access log line a
// request (KFORGE_ACCESS_LOG).
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../log.js';
import { requestScope } from '../log.js';
import { clientIp } from './rate-limit.js';

/** What a caller's id may be: a proxy's or a client's token (uuid, hex, base64url...), never a log injection. */
const SANE_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** Probes and scrapes, left out of the access log unless KFORGE_ACCESS_LOG=all (a balancer probes every second). */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export function requestLog(opts: {
  log: Logger;
  access: 'on' | 'all' | 'off';
  trustProxy: boolean;
}): MiddlewareHandler {
  return async (c, next) => {
    const given = c.req.header('X-Request-Id')?.trim();
    const requestId = given && SANE_ID.test(given) ? given : randomUUID();
    const started = performance.now();
    await requestScope.run({ requestId }, async () => {
      try {
        await next();
      } finally {
        try {
          c.res.headers.set('X-Request-Id', requestId);
        } catch {
          // A response with immutable headers (none of ours): it goes without.
        }
        const path = c.req.path;
        if (opts.access === 'all' || (opts.access === 'on' && !QUIET_PATHS.has(path))) {
          let route = routePath(c);
          if (!route || route === '*' || route === '/*') route = 'other';
          opts.log.info('request', {
            method: c.req.method,
            path: path.slice(0, 300),
            route,
            status: c.res.status,
            // Until the response starts (a stream's headers): an event stream's life is not its latency.
            ms: Math.round((performance.now() - started) * 10) / 10,
            ip: clientIp(c, opts.trustProxy),
            request_id: requestId,
          });
        }
      }
    });
  };
}
