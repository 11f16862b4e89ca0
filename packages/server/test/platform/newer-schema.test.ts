// A server on a database that a newer version migrated exits with a message naming what it does not know, before serving.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/client.js';
import { migrationsDir } from '../../src/db/migrate.js';
import { createLogger } from '../../src/log.js';
import { runServerCommand } from '../helpers/process.js';
import { migratedPostgresDatabase, seedPgliteDataDir } from '../helpers/template.js';

const pgBase = process.env.KFORGE_TEST_DATABASE_URL;
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const knownMigrations = () =>
  readdirSync(migrationsDir())
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();

/** A data dir (and on Postgres a database) migrated by this build, then by "0.9.0", which added one migration. */
async function dataFromTheFuture(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kforge-newer-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { KFORGE_DATA_DIR: dataDir, KFORGE_ADMIN_EMAIL: 'admin@kforge.test' };
  // This build's migrations come from the migrated template (helpers/template.ts): a copy, not a fresh migration.
  if (pgBase) {
    const db = await migratedPostgresDatabase(pgBase);
    cleanups.push(() => db.drop());
    env.DATABASE_URL = db.url;
  } else await seedPgliteDataDir(dataDir);
  const ctx = await createContext(loadConfig(env), { log: createLogger('silent') });
  try {
    await ctx.db.query(
      `INSERT INTO schema_migrations (name, server_version) VALUES ('0099_from_the_future.sql', '0.9.0')`,
    );
  } finally {
    await ctx.close();
  }
  return env;
}

describe(`a server started on newer data (${pgBase ? 'Postgres' : 'PGlite'})`, () => {
  it('exits 1 naming the unknown migration and the version that wrote it, and never listens', async () => {
    const env = await dataFromTheFuture();
    const run = await runServerCommand([], { ...env, HOST: '127.0.0.1', PORT: '0', KFORGE_LOCAL_RUNNER: '0' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('0099_from_the_future.sql');
    expect(run.stderr).toContain('kforge-server 0.9.0');
    expect(run.stderr).toContain('refusing to start');
    expect(`${run.stdout}${run.stderr}`).not.toContain('listening on');
    // A clean message, not a stack trace.
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses in migrate, before applying anything, and releases the database', async () => {
    const env = await dataFromTheFuture();
    const config = loadConfig(env);
    await expect(createContext(config, { log: createLogger('silent') })).rejects.toThrow(
      /0099_from_the_future\.sql .*does not know/,
    );
    // The database is free again (on PGlite: the data-dir lock was released) and its migrations are as they were.
    const db = await openDatabase(config);
    try {
      const rows = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(rows.map((r) => r.name)).toEqual([...knownMigrations(), '0099_from_the_future.sql']);
    } finally {
      await db.close();
    }
  });
});
