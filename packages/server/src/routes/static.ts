// The built web app at `/`, with index.html for client routes; a plain page saying how to build it when it is missing.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';

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

function sendFile(c: Context, file: string, size: number, immutable: boolean): Response {
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Content-Length': String(size),
    // Vite fingerprints files under assets/; index.html must be revalidated so a new build shows at once.
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
  const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream;
  return new Response(body, { status: 200, headers });
}

/** Mount last: it answers every GET/HEAD no other route took, outside /api and /auth. */
export function mountStaticRoutes(app: Hono<AppEnv>, ctx: AppContext): void {
  const dist = ctx.config.webDist;
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
    return sendFile(c, index, statSync(index).size, false);
  };
  app.on(['GET', 'HEAD'], '*', async (c, next) => {
    const res = handler(c);
    if (res) return res;
    await next();
  });
}
