// Starts the HTTP server and background work for a context, and stops them in the right order; used by main.ts and tests.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { startBackground } from './background.js';
import type { AppContext } from './context.js';

/**
 * How long an idle keep-alive connection stays open (Node's default: 5 s, plus a 1 s margin Node adds). A client
 * reuses an idle connection without asking, and when the server's timer fires before it has read the request that
 * came in, Node destroys the socket with that request unread: the client gets ECONNRESET and the server logs nothing.
 * The event loop stalls for seconds at a time (the in-process runner measures the cpu's peaks synchronously: 4-7 s
 * seen on a 2-core machine, bench/README.md "Keep-alive"), and every stall past 6 s reset the client that polled
 * during it (issue 34). 65 s outlasts such stalls and the idle timeouts of what usually stands in front (60 s: nginx's
 * upstream keepalive, cloud balancers), so the peer gives an idle connection up before we do.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Above the keep-alive timeout, as Node's documentation asks, so a request's headers get the whole window. */
export const HEADERS_TIMEOUT_MS = KEEP_ALIVE_TIMEOUT_MS + 1_000;

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
    const s = serve(
      {
        fetch: app.fetch,
        port: opts.port ?? ctx.config.port,
        hostname: host,
        serverOptions: { keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS },
      },
      () => resolve(s),
    );
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
