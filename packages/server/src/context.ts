// Everything a request handler or background task needs, built once at start and passed in (no globals).
import { ensureFirstSuperuser } from './auth/bootstrap.js';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { makePrivate } from './db/private-dir.js';
import { Metrics } from './http/metrics.js';
import { createLogger, type Logger } from './log.js';
import { createMailer, type Mailer } from './mail/mailer.js';

export interface AppContext {
  config: Config;
  db: Database;
  mailer: Mailer;
  log: Logger;
  metrics: Metrics;
  startedAt: Date;
  /** Closes the database; the HTTP server and background work are stopped by their owners first. */
  close(): Promise<void>;
}

export interface ContextOptions {
  /** Defaults to a logger at `config.logLevel` on stderr. */
  log?: Logger;
  /** Skip the first-superuser step (the CLI's create-user does its own). */
  skipBootstrap?: boolean;
}

/** Opens the database, applies migrations and makes sure a first superuser exists. */
export async function createContext(config: Config, opts: ContextOptions = {}): Promise<AppContext> {
  const log = opts.log ?? createLogger(config.logLevel);
  const db = await openDatabase(config);
  try {
    const applied = await migrate(db);
    if (applied.length > 0) log.info(`database migrated (${db.kind})`, { applied });
    // The migrations' new files, private like the rest of the data directory.
    if (db.kind === 'pglite' && !config.databaseUrl) makePrivate(config.dataDir);
    if (!opts.skipBootstrap) await ensureFirstSuperuser(config, db, log);
  } catch (err) {
    await db.close();
    throw err;
  }
  return {
    config,
    db,
    mailer: createMailer(config, db, log),
    log,
    metrics: new Metrics(),
    startedAt: new Date(),
    close: () => db.close(),
  };
}
