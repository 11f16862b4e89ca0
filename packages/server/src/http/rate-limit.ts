// Fixed-window rate limits kept in this process's memory (per replica; see docs/operations.md), answering 429 with Retry-After.
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { HttpError } from './errors.js';

export interface RateLimiter {
  /** Counts one hit for `key`; throws HttpError 429 with `Retry-After` when the window's budget is spent. */
  hit(key: string): void;
}

/** `limit` hits per `windowMs` per key; a limit of 0 turns the limiter off. */
export function createRateLimiter(
  limit: number,
  windowMs: number,
  detail = 'Too many requests, try again later',
): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  let lastSweep = Date.now();
  return {
    hit(key) {
      if (limit <= 0) return;
      const now = Date.now();
      // Forget finished windows now and then, so the map does not grow with every address ever seen.
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k);
        lastSweep = now;
      }
      let w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      if (w.count > limit) {
        const retryAfter = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
        throw new HttpError(429, detail, { 'Retry-After': String(retryAfter) });
      }
    },
  };
}

/** The caller's address: the socket's, or X-Forwarded-For's first entry when the operator trusts the proxy in front. */
export function clientIp(c: Context, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
  if (forwarded) return forwarded;
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
