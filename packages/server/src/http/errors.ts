// One error type for every deliberate HTTP failure, and the one handler that turns errors into `{detail}` bodies.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ValidationIssue } from '@kernelforge/sdk';
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

/** `app.onError`: known errors become their status and `{detail}`; anything else is logged and answered with a bare 500. */
export function errorHandler(log: Logger) {
  return (err: Error, c: Context): Response => {
    if (err instanceof HttpError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json({ detail: err.detail }, err.status);
    }
    if (err instanceof HTTPException) {
      // Hono's own (body limit 413, malformed requests): keep the status, never its internals.
      const status = err.status;
      if (status >= 500) log.error('request failed', { method: c.req.method, path: c.req.path, err });
      return c.json({ detail: err.message || defaultDetail(status) }, status as ContentfulStatusCode);
    }
    log.error('unhandled error', { method: c.req.method, path: c.req.path, err });
    return c.json({ detail: 'Internal Server Error' }, 500);
  };
}

function defaultDetail(status: number): string {
  return status === 413 ? 'Payload Too Large' : status === 404 ? 'Not Found' : 'Error';
}
