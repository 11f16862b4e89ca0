// The built web app at `/`, with index.html for client routes (404 for a path no route takes); brotli or gzip copies
// made at build time go to clients that take them; a plain page saying how to build the app when it is missing.
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
import { type Encoding, pickEncoding, varyOnEncoding } from '../http/compress.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

const NOT_BUILT = (dist: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kernelforge</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; line-height: 1.5">
<h1>Kernelforge</h1>
<p>The server is running, but the web app is not built: <code>${dist.replace(/[<>&]/g, '')}</code> has no <code>index.html</code>.</p>
<p>Build it with <code>pnpm --filter @kernelforge/web build</code> (or <code>pnpm build</code> at the repository root) and reload this page,
or point <code>KFORGE_WEB_DIST</code> at a built copy.</p>
<p>The API works meanwhile: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>, <a href="/api/docs">/api/docs</a>.</p>
</body></html>`;

/** Paths that belong to the server, never to the web app's client routes. */
const isServerPath = (path: string) =>
  path === '/api' ||
  path.startsWith('/api/') ||
  path === '/auth' ||
  path.startsWith('/auth/') ||
  ['/healthz', '/readyz', '/metrics'].includes(path);

const ENCODED_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** The precompressed copy of `file` the client takes, if the build made one. */
function encodedCopy(c: Context, file: string): { path: string; size: number; encoding: Encoding } | null {
  const offered = (['br', 'gzip'] as const).filter((e) => existsSync(file + ENCODED_SUFFIX[e]));
  if (offered.length === 0) return null;
  const encoding = pickEncoding(c.req.header('Accept-Encoding'), offered);
  if (!encoding) return null;
  const path = file + ENCODED_SUFFIX[encoding];
  return { path, size: statSync(path).size, encoding };
}

function sendFile(c: Context, file: string, size: number, immutable: boolean, status = 200): Response {
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const encoded = encodedCopy(c, file);
  const headers = new Headers({
    'Content-Type': type,
    'Content-Length': String(encoded?.size ?? size),
    // Vite fingerprints files under assets/; index.html must be revalidated so a new build shows at once.
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (encoded) headers.set('Content-Encoding', encoded.encoding);
  if (encoded || existsSync(`${file}.gz`)) varyOnEncoding(headers);
  if (c.req.method === 'HEAD') return new Response(null, { status, headers });
  const body = Readable.toWeb(createReadStream(encoded?.path ?? file)) as unknown as ReadableStream;
  return new Response(body, { status, headers });
}

/**
 * The client route patterns the web build lists in routes.json (`/kernels/:kernelId`, ...), so a path no page
 * takes answers 404 (with index.html, which shows the 404 page). Without the file every path is a client route.
 */
function clientRoutes(dist: string): ((path: string) => boolean) | null {
  const file = join(dist, 'routes.json');
  if (!existsSync(file)) return null;
  try {
    const patterns = JSON.parse(readFileSync(file, 'utf8')) as string[];
    const matchers = patterns.map((pattern) => {
      const source = pattern
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      return new RegExp(`^${source}$`);
    });
    return (path) => matchers.some((m) => m.test(path));
  } catch {
    return null;
  }
}

/** Mount last: it answers every GET/HEAD no other route took, outside /api and /auth. */
export function mountStaticRoutes(app: Hono<AppEnv>, ctx: AppContext): void {
  const dist = ctx.config.webDist;
  let routes: ReturnType<typeof clientRoutes> | undefined;
  let routesFor: number | undefined;
  /** routes.json, read again when a new build replaces index.html. */
  const isClientRoute = (path: string, index: string) => {
    const built = statSync(index).mtimeMs;
    if (routes === undefined || routesFor !== built) {
      routes = clientRoutes(dist);
      routesFor = built;
    }
    return routes ? routes(path) : true;
  };
  const handler = (c: Context) => {
    const path = decodeURIComponent(c.req.path);
    if (isServerPath(path)) return undefined;
    const index = join(dist, 'index.html');
    if (!existsSync(index)) return c.html(NOT_BUILT(dist), path === '/' ? 200 : 404);
    // normalize + prefix check keeps `..` from reaching outside the dist folder.
    const file = normalize(join(dist, path));
    if (file.startsWith(dist + sep) && existsSync(file)) {
      const st = statSync(file);
      if (st.isFile()) return sendFile(c, file, st.size, path.startsWith('/assets/'));
    }
    // A missing file with an extension is a real 404, not a client route (avoids serving HTML as a script).
    if (extname(path) && path.startsWith('/assets/')) return c.text('Not Found', 404);
    return sendFile(c, index, statSync(index).size, false, isClientRoute(path, index) ? 200 : 404);
  };
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const res = handler(c);
    if (res) return res;
    await next();
  });
}
