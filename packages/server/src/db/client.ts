// One database handle over either the embedded PGlite (default) or a real Postgres (DATABASE_URL), same SQL for both.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type Config, serverPackageRoot } from '../config.js';
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
  /** Subscribes to a NOTIFY channel; resolves to an unsubscribe function. Works across replicas on Postgres. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** `config.databaseUrl` wins; else PGlite in `<dataDir>/pgdata`. A databaseUrl of `memory://` gives an in-memory PGlite (tests). */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  const url = config.databaseUrl;
  if (url?.startsWith('postgres://') || url?.startsWith('postgresql://')) return openPostgres(url);
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
    async close() {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('SELECT 1');

  // LISTEN needs one dedicated connection for the life of the process, opened on first use.
  let listener: Promise<pg.Client> | null = null;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;
  function listenerClient(): Promise<pg.Client> {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      client.on('notification', (msg) => {
        for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
      });
      await client.connect();
      return client;
    })();
    return listener;
  }

  let closed = false;

  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: unknown[]) {
      const name = preparedName(sql);
      const result = name ? await pool.query({ name, text: sql, values: params ?? [] }) : await pool.query(sql, params);
      return result.rows as T[];
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(inTransaction((sql, params) => client.query(sql, params)));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload) {
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`LISTEN ${quote(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        const current = handlers.get(channel);
        if (!current) return;
        current.delete(onPayload);
        if (current.size === 0) {
          handlers.delete(channel);
          await client.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
        }
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      // Idempotent: a test or a shutdown path may close twice; pg's pool throws on a second end().
      if (closed) return;
      closed = true;
      handlers.clear();
      if (listener) await (await listener).end().catch(() => {});
      listener = null;
      await pool.end();
    },
  };
}
