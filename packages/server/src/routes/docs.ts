// The OpenAPI document at /api/v1/openapi.json and a small, self-contained API reference page at /api/docs.
import type { Hono } from 'hono';
import type { AppContext } from '../context.js';
import type { AppEnv } from '../http/auth.js';
import { buildOpenApiDocument } from '../http/openapi.js';

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

function referencePage(doc: Record<string, unknown>): string {
  const paths = doc.paths as Record<string, Record<string, { summary?: string; security?: unknown }>>;
  const rows = Object.entries(paths)
    .flatMap(([path, ops]) =>
      Object.entries(ops).map(
        ([method, op]) =>
          `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${esc(path)}</code></td><td>${esc(op.summary)}</td><td>${op.security ? 'bearer' : ''}</td></tr>`,
      ),
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kernelforge API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}td{padding:.25rem .75rem;border-bottom:1px solid #ddd}</style></head>
<body><h1>Kernelforge API</h1><p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1, generated from the sdk's zod schemas).</p>
<table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Auth</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
}

export function mountDocsRoutes(app: Hono<AppEnv>, ctx: AppContext): void {
  app.get('/api/v1/openapi.json', (c) => c.json(buildOpenApiDocument({ serverUrl: ctx.config.publicUrl })));
  app.get('/api/docs', (c) => c.html(referencePage(buildOpenApiDocument())));
}
