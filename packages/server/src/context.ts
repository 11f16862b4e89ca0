// Everything a request handler or background task needs, built once at start and passed in (no globals).
import { ensureFirstSuperuser } from './auth/bootstrap.js';
import { type Config, type ServerConfig, settleSecret } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { makePrivate } from './db/private-dir.js';
import { EventBus } from './events/bus.js';
import { Metrics } from './http/metrics.js';
import { JobSignals } from './jobs/signals.js';
import { createLogger, type Logger } from './log.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { Catalogue } from './services/catalogue.js';
import { DeviceRegistry } from './services/devices.js';

/** The one context: routes, services, the session loop and background work all receive this object. */
export interface AppContext {
  /** The configuration with its signing secret settled (written to the data directory on a first start). */
  config: ServerConfig;
  /** The one database interface (rows in and out; see db/client.ts). */
  db: Database;
  mailer: Mailer;
  log: Logger;
  metrics: Metrics;
  /** Session events: stored, then fanned out to every replica with NOTIFY. */
  bus: EventBus;
  /** Wakes idle workers and runners when a job is queued. */
  signals: JobSignals;
  /** The built-in problems (problems/). */
  catalogue: Catalogue;
  /** The devices this machine and the registered runners serve. */
  devices: DeviceRegistry;
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
export async function createContext(loaded: Config, opts: ContextOptions = {}): Promise<AppContext> {
  // Start-up's one configuration side effect, made here and not while loading: the secret file on a first start.
  const config = settleSecret(loaded);
  const log = opts.log ?? createLogger(config.logLevel, undefined, config.logFormat);
  const db = await openDatabase(config, { log });
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
    bus: new EventBus(db),
    signals: new JobSignals(db),
    catalogue: new Catalogue(config.problemsDir, config.problemDirs, config.torchBudgets, config.runner.python),
    devices: new DeviceRegistry(db, config),
    startedAt: new Date(),
    close: () => db.close(),
  };
}
