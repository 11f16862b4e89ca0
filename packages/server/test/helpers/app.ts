// The real app answering in process, as hono's own tests do (`app.request()`): the context a started server has (a
// fresh database copied from the migrated template, the same configuration and first superuser) with no port, and no
// background work (no job timers, runner or agents) unless a test asks for it. For route checks: authorization,
// validation, status codes. Tests of what needs a socket (SSE over HTTP, compression, replicas, restarts, processes)
// use startTestServer.
import type { Hono } from 'hono';
import { createApp } from '../../src/app.js';
import { startBackground } from '../../src/background.js';
import type { AppEnv } from '../../src/http/auth.js';
import { openTestContext, requestInit, type TestServerOptions, type TestTarget } from './server.js';

/** The origin app.request() gives a path (hono's default), and so the public URL that mail links use. */
export const TEST_APP_ORIGIN = 'http://localhost';

export interface TestApp extends TestTarget {
  app: Hono<AppEnv>;
  /** `fetch` answered by the app, for clients that take one (the sdk's createClient({ baseUrl: TEST_APP_ORIGIN, fetch })). */
  fetch: typeof fetch;
}

export type TestAppOptions = Omit<TestServerOptions, 'localRunner' | 'background'> & {
  /**
   * Start the background work a server starts (agents' generate workers, the lease reaper; default off): for tests
   * whose sessions must generate attempts. The in-process runner stays off: tests that evaluate start a server.
   */
  background?: boolean;
};

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const { dispose, ...test } = await openTestContext(opts);
  const { ctx } = test;
  if (!opts.env?.KFORGE_PUBLIC_URL) ctx.config.publicUrl = TEST_APP_ORIGIN;
  const app = createApp(ctx);
  let background: { stop(): Promise<void> } | null = null;
  try {
    if (opts.background) background = await startBackground(ctx);
  } catch (err) {
    await ctx.close();
    await dispose();
    throw err;
  }
  let stopping: Promise<void> | null = null;
  return {
    ...test,
    app,
    fetch: async (input, init) => app.request(input instanceof URL ? input.href : input, init),
    request(path, init = {}) {
      return Promise.resolve(app.request(path, requestInit(init)));
    },
    stop() {
      // As startServer's stop() without a listener: stop background work, wake long polls, drop LISTENs, close.
      stopping ??= (async () => {
        await background?.stop();
        await ctx.signals.close();
        await ctx.bus.close();
        await ctx.close();
        await dispose();
      })();
      return stopping;
    },
  };
}
