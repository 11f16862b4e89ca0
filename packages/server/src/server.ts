// Starts the HTTP server and background work for a context, and stops them in the right order; used by main.ts and tests.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { startBackground } from './background.js';
import type { AppContext } from './context.js';

export interface RunningServer {
  /** `http://host:port` as reachable from this machine. */
  url: string;
  port: number;
  /** Stops taking requests, stops background work, closes the database. */
  stop(): Promise<void>;
}

export async function startServer(
  ctx: AppContext,
  opts: { port?: number; host?: string; background?: boolean } = {},
): Promise<RunningServer> {
  const app = createApp(ctx);
  const host = opts.host ?? ctx.config.host;
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? ctx.config.port, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const background = opts.background === false ? { stop: async () => {} } : await startBackground(ctx);
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  let stopping: Promise<void> | null = null;
  return {
    url: `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`,
    port,
    stop() {
      stopping ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Open keep-alive and SSE connections would hold close() forever.
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        await background.stop();
        await ctx.close();
      })();
      return stopping;
    },
  };
}
