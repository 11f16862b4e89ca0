// Compresses JSON and text responses by the client's Accept-Encoding (brotli, then gzip); never a stream such as SSE.
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this a compressed body saves less than the header costs. */
export const MIN_COMPRESS_BYTES = 1024;

/** Bodies that are whole when the handler returns: JSON, HTML, plain text, JavaScript, CSS, SVG. */
const COMPRESSIBLE =
  /^(application\/(json|javascript|problem\+json)|text\/(html|plain|css|javascript)|image\/svg\+xml)\b/i;

export type Encoding = 'br' | 'gzip';

/** The encoding to answer with: brotli when the client takes it, else gzip, else none (`q=0` refuses one). */
export function pickEncoding(
  acceptEncoding: string | undefined,
  offered: readonly Encoding[] = ['br', 'gzip'],
): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) || 0 : 1);
  }
  const star = accepted.get('*');
  for (const encoding of offered) {
    const q = accepted.get(encoding) ?? star ?? 0;
    if (q > 0) return encoding;
  }
  return null;
}

/** Adds `Accept-Encoding` to a response's Vary header once. */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/\baccept-encoding\b/i.test(vary) && vary !== '*') headers.set('Vary', `${vary}, Accept-Encoding`);
}

function encode(raw: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(raw, { level: 6 });
  return brotli(raw, {
    params: {
      // Quality 4 is fast enough per request and close to gzip -9 in size; the static assets are made at 11.
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    // res.body is read last, only when compressing: on @hono/node-server's lightweight response it builds the whole
    // WHATWG Response and sends the body through a stream instead of writing the string straight to the socket.
    if (c.req.method === 'HEAD' || res.status === 204 || res.status === 304) return;
    if (res.headers.has('Content-Encoding')) return;
    const type = res.headers.get('Content-Type') ?? '';
    // text/event-stream and anything else that streams is left alone: compressing it would hold events back.
    if (!COMPRESSIBLE.test(type)) return;
    if (/\bno-transform\b/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const length = Number(res.headers.get('Content-Length') ?? Number.NaN);
    if (Number.isFinite(length) && length < MIN_COMPRESS_BYTES) {
      varyOnEncoding(res.headers);
      return;
    }
    const encoding = pickEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) {
      varyOnEncoding(res.headers);
      return;
    }
    if (!res.body) return;
    const raw = Buffer.from(await res.arrayBuffer());
    const body = raw.length < MIN_COMPRESS_BYTES ? raw : await encode(raw, encoding);
    // Hono's setter copies the old response's headers onto the new one, so the new headers are set after it.
    c.res = new Response(new Uint8Array(body), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
    const headers = c.res.headers;
    varyOnEncoding(headers);
    headers.set('Content-Length', String(body.length));
    if (body === raw) return;
    headers.set('Content-Encoding', encoding);
    // A strong ETag names the identity bytes; say so for the encoded ones.
    const etag = headers.get('ETag');
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
  };
}
