// One database handle over either the embedded PGlite (default) or a real Postgres (DATABASE_URL), same SQL for both.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Config, serverPackageRoot } from '../config.js';
import type { Logger } from '../log.js';
import { lockDataDir } from './dir-lock.js';
import { makePrivate, restrictUmask } from './private-dir.js';
import { preparedName, type Sql } from './sql.js';

/**
 * The one database interface: `query` and `transaction` (the Sql surface every module uses, rows in and out),
 * plus what only the platform needs. `transaction` commits when `fn` resolves and rolls back when it throws.
 * On PGlite the transaction holds the only connection: inside `fn` use `tx`, never the outer handle (it would
 * wait forever); a nested `tx.transaction` reuses the outer transaction.
 */
export interface Database extends Sql {
  kind: 'pglite' | 'postgres';
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Subscribes to a NOTIFY channel; resolves to an unsubscribe function. Works across replicas on Postgres. Never
   * fails for a database out of reach: the LISTEN connection reconnects with backoff, listens again, and then calls
   * `onResume` (notices sent meanwhile were lost: the subscriber fetches what it missed).
   */
  listen(channel: string, onPayload: (payload: string) => void, onResume?: () => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Whether the database (queries and the LISTEN connection) is reachable, and since when (readiness). */
  health(): DatabaseHealth;
  /**
   * For a caller about to log `err`: true when it is the database being out of reach, in which case it was counted
   * under `what` for the outage's one summary line (and the outage's one first line), and the caller should not log
   * it. False for any other error (log it as usual). Always false on PGlite.
   */
  outage(err: unknown, what: string): boolean;
  /** PGlite only: the data dir as a tar (gzip), consistent, while open (`kforge-server backup`). */
  dumpDataDir?(compression?: 'gzip' | 'none' | 'auto'): Promise<Blob>;
  close(): Promise<void>;
}

export interface DatabaseHealth {
  ok: boolean;
  /** When the current state (reachable or not) began. */
  since: Date;
  /** Why not, for /readyz; null while ok. */
  detail: string | null;
}

/** `config.databaseUrl` wins; else PGlite in `<dataDir>/pgdata`. A databaseUrl of `memory://` gives an in-memory PGlite (tests). */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  opts: { log?: Logger } = {},
): Promise<Database> {
  const url = config.databaseUrl;
  if (url?.startsWith('postgres://') || url?.startsWith('postgresql://')) return openPostgres(url, opts.log);
  if (url === 'memory://') return openPglite(await PGlite.create(PGLITE_OPTIONS));
  if (url)
    throw new Error(
      `DATABASE_URL must start with postgres:// or postgresql:// (or be memory://), got ${url.split(':')[0]}:`,
    );
  const dir = join(config.dataDir, 'pgdata');
  // Before PGlite writes anything: it creates files 0666 & ~umask, and the database is nobody else's to read.
  const restoreUmask = restrictUmask();
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const unlock = lockDataDir(config.dataDir);
    try {
      if (!existsSync(join(dir, 'PG_VERSION'))) await initPgliteDir(dir);
      // Data directories made before this rule (or copied with another umask) are made private too. Files PGlite
      // makes later (new tables, WAL segments, and pg_internal.init, which the WebAssembly C library writes 0644
      // whatever the umask) sit inside the 0700 folder, where no one else can reach them, and are tightened again
      // after the migrations (createContext) and at close.
      makePrivate(config.dataDir);
      const pglite = await PGlite.create(dir, PGLITE_OPTIONS);
      makePrivate(config.dataDir);
      return openPglite(pglite, () => {
        unlock();
        makePrivate(config.dataDir);
      });
    } catch (error) {
      unlock();
      throw error;
    }
  } finally {
    restoreUmask();
  }
}

/**
 * Runs initdb for a new data dir in a short-lived child process. Done in this process, initdb's WebAssembly memory
 * (~450 MB) would stay with the server until some later garbage collection, if ever: an idle server must stay small.
 */
async function initPgliteDir(dir: string): Promise<void> {
  const script = `import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create(process.argv[1], JSON.parse(process.argv[2]));
await db.close();`;
  // cwd: bare imports in an eval'd module resolve from there, and the server's own node_modules has PGlite.
  await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', script, dir, JSON.stringify(PGLITE_OPTIONS)],
    { cwd: serverPackageRoot() },
  );
}

/**
 * An embedded database for one process and a modest amount of data: 16 MB of shared buffers instead of
 * Postgres's 128 MB default roughly halves an idle server's memory (DESIGN 10: <= 300 MB resident).
 */
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers=16MB'] };

/** A transaction handle over a driver's per-transaction query; nested transactions run inside it. */
function inTransaction(query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }>): Sql {
  const tx: Sql = {
    query: async <T>(sql: string, params?: unknown[]) => (await query(sql, params)).rows as T[],
    transaction: (fn) => fn(tx),
  };
  return tx;
}

function openPglite(pglite: PGlite, unlock: () => void = () => {}): Database {
  const opened = new Date();
  return {
    kind: 'pglite',
    query: async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
    async exec(sql) {
      await pglite.exec(sql);
    },
    transaction(fn) {
      return pglite.transaction((tx) => fn(inTransaction((sql, params) => tx.query(sql, params))));
    },
    async listen(channel, onPayload) {
      const unlisten = await pglite.listen(channel, onPayload);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    async notify(channel, payload) {
      await pglite.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    // In-process: reachable while open (a closed one fails its queries, which /readyz's SELECT 1 reports).
    health: () => ({ ok: true, since: opened, detail: null }),
    outage: () => false,
    dumpDataDir: (compression) => pglite.dumpDataDir(compression),
    async close() {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}

/** Errors that mean the database is out of reach (restarting, refusing, gone), not that a statement was wrong. */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = String((err as { code?: unknown }).code ?? '');
  if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true;
  const message = String((err as { message?: unknown }).message ?? '');
  return CONNECTION_MESSAGES.test(message);
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  // admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down)
  '57P01',
  '57P02',
  '57P03',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|not queryable|terminating connection|timeout exceeded when trying to connect|database system is (starting up|shutting down|in recovery mode)|Client was closed|Connection ended unexpectedly/i;

/** How long the LISTEN connection waits between reconnects: doubling from the first, up to the last. */
export const RECONNECT_DELAYS_MS = { first: 250, max: 5000 };

const utcClock = (d: Date) => `${d.toISOString().slice(11, 19)} UTC`;

/**
 * One outage of the database as this process saw it: a line when it starts, a summary when it ends, and in between
 * the errors callers hand to `outage()` are counted instead of logged (a 27 s restart used to write ~100 stacks).
 */
class Outages {
  private down: { since: Date; reason: string; counts: Map<string, number> } | null = null;
  private changed = new Date();
  constructor(private readonly log: Logger | undefined) {}

  get current() {
    return this.down;
  }

  get since(): Date {
    return this.changed;
  }

  begin(reason: string): void {
    if (this.down) return;
    this.changed = new Date();
    this.down = { since: this.changed, reason, counts: new Map() };
    this.log?.warn('database connection lost; reconnecting (errors are counted, not logged, until it is back)', {
      reason,
    });
  }

  count(what: string): void {
    if (this.down) this.down.counts.set(what, (this.down.counts.get(what) ?? 0) + 1);
  }

  end(tries: number): void {
    const down = this.down;
    if (!down) return;
    this.down = null;
    this.changed = new Date();
    this.log?.info('database connection back', {
      down_seconds: Math.round((this.changed.getTime() - down.since.getTime()) / 100) / 10,
      since: down.since.toISOString(),
      reason: down.reason,
      reconnect_tries: tries,
      errors_while_down: Object.fromEntries(down.counts),
    });
  }
}

/**
 * The LISTEN connection: one dedicated client for the life of the process, opened on first use and reopened with
 * backoff whenever it drops (a Postgres restart, a network cut). Channels are listened again on the new client, and
 * each subscriber's `onResume` runs then, so it can fetch what was announced while no one listened.
 */
class PgListener {
  state: 'idle' | 'connecting' | 'up' | 'down' = 'idle';
  tries = 0;
  lastError = '';
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;
  readonly handlers = new Map<string, Set<(payload: string) => void>>();
  readonly resumers = new Set<() => void>();

  constructor(
    private readonly url: string,
    private readonly outages: Outages,
  ) {}

  /** Connects now unless connected or connecting; resolves after this try (never rejects). */
  ensure(): Promise<void> {
    // Down with a retry pending: the backoff decides when, not how often subscribers ask.
    if (this.closed || this.state === 'up' || this.timer) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const wasDown = this.state === 'down';
    this.state = 'connecting';
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    const lost = (err?: Error) => this.lost(client, err);
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      for (const h of this.handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    try {
      await client.connect();
      const channels = [...this.handlers.keys()];
      if (channels.length > 0) await client.query(channels.map((c) => `LISTEN ${quote(c)}`).join('; '));
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      this.client = null;
      this.lastError = (err as Error).message;
      this.state = 'down';
      this.outages.begin(`LISTEN connection: ${this.lastError}`);
      this.retryLater();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.state = 'up';
    const tries = this.tries;
    this.tries = 0;
    if (wasDown || this.outages.current) {
      this.outages.end(tries);
      for (const resume of [...this.resumers]) resume();
    }
  }

  private lost(client: pg.Client, err?: Error): void {
    if (client !== this.client || this.closed) return;
    this.client = null;
    this.state = 'down';
    this.lastError = err?.message ?? 'connection ended';
    client.removeAllListeners('end');
    client.end().catch(() => {});
    this.outages.begin(`LISTEN connection: ${this.lastError}`);
    this.retryLater();
  }

  private retryLater(): void {
    if (this.closed || this.timer) return;
    const delay = Math.min(RECONNECT_DELAYS_MS.max, RECONNECT_DELAYS_MS.first * 2 ** this.tries);
    this.tries += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.ensure();
    }, delay);
    this.timer.unref();
  }

  /** Runs a statement on the live client; one that fails for the connection is left to the reconnect. */
  async onLive(sql: string): Promise<void> {
    const client = this.client;
    if (!client || this.state !== 'up') return;
    try {
      await client.query(sql);
    } catch (err) {
      if (!isConnectionError(err)) throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.handlers.clear();
    this.resumers.clear();
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
    }
  }
}

const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

async function openPostgres(url: string, log?: Logger): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('SELECT 1');

  const outages = new Outages(log);
  const listener = new PgListener(url, outages);
  /** A query failed: a connection error starts an outage (if none is known yet). */
  const failed = (err: unknown) => {
    if (isConnectionError(err)) outages.begin(`query: ${(err as Error).message}`);
  };
  /** A query answered: an outage the LISTEN connection is not part of ends here. */
  const answered = () => {
    if (outages.current && (listener.state === 'up' || listener.state === 'idle')) outages.end(0);
  };
  const run = async <R>(fn: () => Promise<R>): Promise<R> => {
    try {
      const result = await fn();
      answered();
      return result;
    } catch (err) {
      failed(err);
      throw err;
    }
  };

  let closed = false;

  return {
    kind: 'postgres',
    query<T>(sql: string, params?: unknown[]) {
      const name = preparedName(sql);
      return run(async () => {
        const result = name
          ? await pool.query({ name, text: sql, values: params ?? [] })
          : await pool.query(sql, params);
        return result.rows as T[];
      });
    },
    async exec(sql) {
      await run(() => pool.query(sql));
    },
    async transaction(fn) {
      const client = await run(() => pool.connect());
      // The pool listens for 'error' only on idle clients. A connection that ends while this transaction holds it
      // between statements (a Postgres restart while `fn` awaits something else) emits 'error' with no one else to
      // hear it, which would end the process: keep it here, and give the client back broken so the pool drops it.
      let broken: Error | undefined;
      const onError = (err: Error) => {
        broken ??= err;
        failed(err);
      };
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(inTransaction((sql, params) => client.query(sql, params)));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        failed(err);
        if (isConnectionError(err)) broken ??= err as Error;
        else await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.removeListener('error', onError);
        client.release(broken);
      }
    },
    async listen(channel, onPayload, onResume) {
      let set = listener.handlers.get(channel);
      const fresh = !set;
      if (!set) {
        set = new Set();
        listener.handlers.set(channel, set);
      }
      set.add(onPayload);
      if (onResume) listener.resumers.add(onResume);
      // The first use connects (and listens on every channel known then); later ones listen on the live client.
      // While the connection is down this returns at once: the reconnect listens, then calls onResume.
      const wasIdle = listener.state === 'idle';
      await listener.ensure();
      if (fresh && !wasIdle) await listener.onLive(`LISTEN ${quote(channel)}`);
      return async () => {
        if (onResume) listener.resumers.delete(onResume);
        const current = listener.handlers.get(channel);
        if (!current) return;
        current.delete(onPayload);
        if (current.size === 0) {
          listener.handlers.delete(channel);
          await listener.onLive(`UNLISTEN ${quote(channel)}`).catch(() => {});
        }
      };
    },
    async notify(channel, payload) {
      await run(() => pool.query('SELECT pg_notify($1, $2)', [channel, payload]));
    },
    health() {
      const down = outages.current;
      if (!down && listener.state !== 'down') return { ok: true, since: outages.since, detail: null };
      const since = down?.since ?? outages.since;
      const reason = down?.reason ?? `LISTEN connection: ${listener.lastError}`;
      return {
        ok: false,
        since,
        detail: `Database out of reach since ${utcClock(since)} (${reason}); reconnecting${listener.tries > 0 ? ` (try ${listener.tries})` : ''}`,
      };
    },
    outage(err, what) {
      if (!isConnectionError(err)) return false;
      outages.begin(`${what}: ${(err as Error).message}`);
      outages.count(what);
      return true;
    },
    async close() {
      // Idempotent: a test or a shutdown path may close twice; pg's pool throws on a second end().
      if (closed) return;
      closed = true;
      await listener.close();
      await pool.end();
    },
  };
}
