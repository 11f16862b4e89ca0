// Starts the real server on a real port with a fresh database (PGlite in a temp dir, or a new Postgres database),
// copied from one migrated template (helpers/template.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { User } from '@kernelforge/sdk';
import pg from 'pg';
import { signAccessToken } from '../../src/auth/access-token.js';
import { createUser as insertUser, toWireUser, withoutHash } from '../../src/auth/users.js';
import { loadConfig } from '../../src/config.js';
import { type AppContext, createContext } from '../../src/context.js';
import type { Logger } from '../../src/log.js';
import { startServer } from '../../src/server.js';
import { migratedPostgresDatabase, seedPgliteDataDir } from './template.js';

export interface TestServerOptions {
  /** Extra environment for loadConfig (the test runner's own environment is NOT read, except KFORGE_TEST_DATABASE_URL). */
  env?: Record<string, string>;
  /** Reuse a data dir (restart tests); it is then left in place by stop(). */
  dataDir?: string;
  /** Reuse a Postgres database URL made by an earlier server (restart tests on Postgres); left in place by stop(). */
  databaseUrl?: string;
  /** Start the in-process runner (default off: KFORGE_LOCAL_RUNNER=0). */
  localRunner?: boolean;
  /** Start background work (startBackground) too; default true. */
  background?: boolean;
  /** Where the server logs (default: stderr at `logLevel`); tests that read the log pass a capturing logger. */
  log?: Logger;
  /** Leave the data dir and the Postgres database in place on stop() (the first half of a restart test). */
  keepData?: boolean;
  /** Log level for the server (default 'warn', or KFORGE_TEST_LOG_LEVEL). */
  logLevel?: string;
}

export interface TestUser {
  user: User;
  /** A JWT access token for the user. */
  token: string;
}

/**
 * What a route test uses, whether the server listens on a port (TestServer) or answers in process (TestApp,
 * helpers/app.ts): the real context on a fresh database, an admin, users and tokens, and requests.
 */
export interface TestTarget {
  ctx: AppContext;
  admin: { email: string; password: string; token: string };
  /** The bearer token /metrics wants (KFORGE_METRICS_TOKEN), unless the test's env chose another. */
  metricsToken: string;
  /** The data dir in use (PGlite files, secret); pass it back as `dataDir` to restart on the same data. */
  dataDir: string;
  /** The Postgres URL in use, or null on PGlite; pass it back as `databaseUrl` to restart on the same data. */
  databaseUrl: string | null;
  createUser(opts?: {
    email?: string;
    password?: string;
    full_name?: string;
    is_superuser?: boolean;
  }): Promise<TestUser>;
  /** A request to `path` with an optional bearer token and JSON body. */
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

export interface TestServer extends TestTarget {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `fetch(url + path)` with an optional bearer token and JSON body. */
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
}

/** A new empty database on the KFORGE_TEST_DATABASE_URL server; returns its URL and a function that drops it. */
export async function freshPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `kf_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

let counter = 0;

/** The bearer token, JSON body and headers of a test request, as RequestInit. */
export function requestInit(init: RequestInit & { token?: string; json?: unknown } = {}): RequestInit {
  const { token, json, headers, ...rest } = init;
  const h = new Headers(headers);
  if (token) h.set('Authorization', `Bearer ${token}`);
  if (json !== undefined) h.set('Content-Type', 'application/json');
  return { ...rest, headers: h, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) };
}

/** A test's context before anything serves it: the database, configuration and admin a server would start with. */
export type TestContext = Omit<TestTarget, 'request' | 'stop'> & {
  /** Drops what the test made (the Postgres database, the data dir), unless `keepData` or the test's own. */
  dispose(): Promise<void>;
};

/**
 * Opens the real context on a fresh database (a copy of the migrated template), with the configuration and first
 * superuser a started server has; startTestServer serves it on a port, createTestApp (helpers/app.ts) in process.
 */
export async function openTestContext(opts: TestServerOptions = {}): Promise<TestContext> {
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'kforge-test-'));
  const pgBase = process.env.KFORGE_TEST_DATABASE_URL;
  let drop: (() => Promise<void>) | null = null;
  let databaseUrl: string | null = opts.databaseUrl ?? null;
  // A new database is a copy of one migrated once (helpers/template.ts), not a fresh initdb and migration.
  if (!databaseUrl && pgBase) {
    const fresh = await migratedPostgresDatabase(pgBase);
    databaseUrl = fresh.url;
    drop = fresh.drop;
  } else if (!databaseUrl) {
    // A data dir that has no database yet (a new one, or one a restart test made) gets the copy too.
    await seedPgliteDataDir(dataDir);
  }
  const admin = { email: 'admin@kforge.test', password: `pw-${randomBytes(9).toString('base64url')}` };
  const metricsToken = `metrics-${randomBytes(9).toString('base64url')}`;
  const env: Record<string, string> = {
    KFORGE_DATA_DIR: dataDir,
    KFORGE_METRICS_TOKEN: metricsToken,
    // One runner folder for every test server of this user, so harness builds are cached across tests.
    KFORGE_RUNNER_WORK_DIR: join(tmpdir(), `kforge-runner-test-${process.getuid?.() ?? 0}`),
    HOST: '127.0.0.1',
    PORT: '0',
    KFORGE_ADMIN_EMAIL: admin.email,
    KFORGE_ADMIN_PASSWORD: admin.password,
    KFORGE_LOCAL_RUNNER: opts.localRunner ? '1' : '0',
    // Few samples: a test that is about timing says KFORGE_RUNNER_TIMING: 'default' in its env.
    KFORGE_RUNNER_TIMING: 'quick',
    KFORGE_LOG_LEVEL: opts.logLevel ?? process.env.KFORGE_TEST_LOG_LEVEL ?? 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...opts.env,
  };
  const config = loadConfig(env);
  const dispose = async () => {
    if (opts.keepData) return;
    await drop?.();
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let ctx: AppContext;
  try {
    ctx = await createContext(config, opts.log ? { log: opts.log } : {});
  } catch (err) {
    await drop?.();
    throw err;
  }

  // On a reused database the configured admin may have another password: the token is all tests need.
  const adminRow = await ctx.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [admin.email]);
  const adminId = adminRow[0]?.id;
  const sign = (id: string) => signAccessToken(ctx.config.secret, id, { expiresInSeconds: 3600 });
  const adminToken = adminId ? await sign(adminId) : '';

  return {
    ctx,
    admin: { ...admin, token: adminToken },
    metricsToken: env.KFORGE_METRICS_TOKEN ?? metricsToken,
    dataDir,
    databaseUrl,
    async createUser(o = {}) {
      counter += 1;
      const email = o.email ?? `user${counter}-${randomBytes(3).toString('hex')}@kforge.test`;
      const row = await insertUser(ctx.db, {
        email,
        password: o.password ?? null,
        fullName: o.full_name ?? null,
        isSuperuser: o.is_superuser ?? false,
      });
      return { user: toWireUser(withoutHash(row)), token: await sign(row.id) };
    },
    dispose,
  };
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const { dispose, ...test } = await openTestContext(opts);
  const { ctx } = test;
  const server = await startServer(ctx, { port: 0, host: '127.0.0.1', background: opts.background ?? true });
  // Mail links should point at this server unless the test chose a public URL.
  if (!opts.env?.KFORGE_PUBLIC_URL) ctx.config.publicUrl = server.url;
  return {
    ...test,
    url: server.url,
    request(path, init = {}) {
      return fetch(`${server.url}${path}`, requestInit(init));
    },
    async stop() {
      await server.stop();
      await dispose();
    },
  };
}
