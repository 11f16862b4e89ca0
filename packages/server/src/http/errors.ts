// One error type for every deliberate HTTP failure, and the one handler that turns errors into `{detail}` bodies.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ValidationIssue } from '@kernelforge/sdk';
import { ConflictError, DomainError, ForbiddenError, InvalidInputError, LimitError, NotFoundError } from '../errors.js';
import type { Logger } from '../log.js';

export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly detail: string | ValidationIssue[],
    /** Extra response headers, e.g. `Retry-After` on a 429 or `WWW-Authenticate` on a 401. */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation Error');
    this.name = 'HttpError';
  }
}

/** 422 in FastAPI's shape: `{detail: [{loc, msg, type}]}`. */
export class ValidationError extends HttpError {
  constructor(issues: ValidationIssue[]) {
    super(422, issues);
    this.name = 'ValidationError';
  }
}

export const notFound = (detail = 'Not Found') => new HttpError(404, detail);

/** A domain error (errors.ts) as the HTTP answer it stands for: its status, `{detail}` and headers. */
export function httpErrorOf(err: DomainError): HttpError {
  if (err instanceof InvalidInputError) return new ValidationError(err.issues);
  if (err instanceof NotFoundError) return new HttpError(404, err.detail);
  if (err instanceof ConflictError) return new HttpError(409, err.detail);
  if (err instanceof ForbiddenError) return new HttpError(403, err.detail);
  if (err instanceof LimitError)
    return new HttpError(429, err.detail, { 'Retry-After': String(err.retryAfterSeconds) });
  return new HttpError(400, err.detail);
}

/** `app.onError`: known errors become their status and `{detail}`; anything else is logged and answered with a bare 500. */
export function errorHandler(log: Logger, outage: (err: unknown, what: string) => boolean = () => false) {
  const throttled = throttledErrorLog(log);
  // The database out of reach: counted for the outage's summary line instead (db/client.ts).
  const logUnexpected = (msg: string, c: Context, err: Error) => {
    if (!outage(err, 'request failed (database out of reach)')) throttled(msg, c, err);
  };
  return (err: Error, c: Context): Response => {
    if (err instanceof DomainError) err = httpErrorOf(err);
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json({ detail: err.detail }, err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's own (body limit 413, malformed requests): keep the status, never its internals.
      const status = err.status;
      if (status >= 500) logUnexpected('request failed', c, err);
      return c.json({ detail: err.message || defaultDetail(status) }, status as ContentfulStatusCode);
    }
    logUnexpected('unhandled error', c, err);
    return c.json({ detail: 'Internal Server Error' }, 500);
  };
}

function defaultDetail(status: number): string {
  return status === 413 ? 'Payload Too Large' : status === 404 ? 'Not Found' : 'Error';
}

const WINDOW_MS = 60_000;
/** Stack traces written per minute in all; past that, one line a minute says how many were left out. */
export const MAX_ERROR_STACKS_PER_MINUTE = 20;

/**
 * Logs an unexpected error with its stack, but the same error (route and message) at most once a minute, and at
 * most MAX_ERROR_STACKS_PER_MINUTE stacks a minute in all: a client repeating a failing request must not be able
 * to grow the log without bound. What was left out is counted and said once the minute is over.
 */
export function throttledErrorLog(log: Logger, now: () => number = Date.now) {
  const quiet = new Map<string, number>();
  let windowStart = 0;
  let written = 0;
  let leftOut = 0;
  return (msg: string, c: Context, err: Error): void => {
    const t = now();
    if (t - windowStart >= WINDOW_MS) {
      if (leftOut > 0) log.error(`${leftOut} more unexpected errors in the last minute were not logged (repeats)`);
      windowStart = t;
      written = 0;
      leftOut = 0;
      for (const [k, until] of quiet) if (until <= t) quiet.delete(k);
    }
    const route = c.req.routePath || c.req.path;
    const key = `${c.req.method} ${route} ${err.name}: ${err.message}`.slice(0, 500);
    if ((quiet.get(key) ?? 0) > t || written >= MAX_ERROR_STACKS_PER_MINUTE) {
      leftOut += 1;
      return;
    }
    written += 1;
    if (quiet.size < 10_000) quiet.set(key, t + WINDOW_MS);
    log.error(msg, { method: c.req.method, path: c.req.path.slice(0, 200), err });
  };
}
