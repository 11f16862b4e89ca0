// Refuses, before any route runs, URLs no route can use: a malformed %-escape or a NUL in the path or the query.
import type { MiddlewareHandler } from 'hono';
import { HttpError } from './errors.js';

/** The part of the URL after the origin, as sent (still %-encoded). */
function rawPathAndQuery(url: string): { path: string; query: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const rest = start < 0 ? '/' : url.slice(start);
  const hash = rest.indexOf('#');
  const noHash = hash < 0 ? rest : rest.slice(0, hash);
  const q = noHash.indexOf('?');
  return q < 0 ? { path: noHash, query: '' } : { path: noHash.slice(0, q), query: noHash.slice(q + 1) };
}

function decodes(part: string): string | null {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** 400 with a detail that says what to fix, for the URLs that used to reach a handler and fail there with a 500. */
export function requestGuard(): MiddlewareHandler {
  return async (c, next) => {
    // Without a %-escape there is nothing to decode: a raw NUL never gets past Node's HTTP parser.
    if (!c.req.url.includes('%')) return next();
    const { path, query } = rawPathAndQuery(c.req.url);
    const decodedPath = decodes(path);
    if (decodedPath === null)
      throw new HttpError(400, 'The URL path has a malformed %-escape: encode "%" as %25 and use UTF-8 escapes');
    if (decodedPath.includes('\u0000')) throw new HttpError(400, 'The URL path must not contain NUL (%00)');
    for (const pair of query ? query.split('&') : []) {
      const decoded = decodes(pair);
      if (decoded === null)
        throw new HttpError(400, 'The query string has a malformed %-escape: encode "%" as %25 and use UTF-8 escapes');
      if (decoded.includes('\u0000')) throw new HttpError(400, 'The query string must not contain NUL (%00)');
    }
    await next();
  };
}
