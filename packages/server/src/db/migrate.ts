// Applies migrations/*.sql in name order, each once, each in its own transaction; safe with several replicas starting at once.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVersion } from '@kernelforge/runner';
import { StartupError, serverPackageRoot } from '../config.js';
import type { Database } from './client.js';

export const migrationsDir = (): string => join(serverPackageRoot(), 'migrations');

// Any constant shared by all replicas: the advisory lock serialises concurrent migrators on Postgres.
const LOCK_KEY = 73_112_024;

/** This build's version (package version and commit: `0.1.0+3f2a9c1b7d4e`, see buildVersion), recorded with each
    migration it applies (and named when an older build meets them). */
export function serverVersion(): string {
  return buildVersion(serverPackageRoot());
}

/** The database holds migrations this build does not have: a newer version wrote it. */
export class NewerSchemaError extends StartupError {
  constructor(readonly unknown: Array<{ name: string; server_version: string | null }>) {
    const names = unknown.map((m) => m.name).join(', ');
    const writers = [...new Set(unknown.map((m) => m.server_version ?? 'a version before 0.1.0 recorded versions'))];
    super(
      `the database was migrated by a newer Kernelforge (kforge-server ${writers.join(', ')}): it has migration(s) ${names} that this build (${serverVersion()}) does not know. Run that version or newer, or restore a backup taken before the upgrade; refusing to start`,
    );
  }
}

/**
 * Returns the names applied by this call (empty when the schema was already current). Every transaction takes
 * the advisory lock before its first other statement: even creating `schema_migrations` races on an empty
 * Postgres database (two `CREATE TABLE IF NOT EXISTS` at once can both try to create the row type).
 * Throws NewerSchemaError, before changing anything, when the database has migrations this build lacks.
 */
export async function migrate(database: Database, dir: string = migrationsDir()): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .sort();
  const version = serverVersion();
  await database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    // Which build applied each migration, so an older build can say who wrote the data it refuses.
    await tx.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS server_version text');
    const recorded = await tx.query<{ name: string; server_version: string | null }>(
      'SELECT name, server_version FROM schema_migrations ORDER BY name',
    );
    const unknown = recorded.filter((m) => !files.includes(m.name));
    if (unknown.length > 0) throw new NewerSchemaError(unknown);
  });
  const applied: string[] = [];
  for (const name of files) {
    const sql = readFileSync(join(dir, name), 'utf8');
    const ran = await database.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (done.length > 0) return false;
      await runScript(tx, sql);
      await tx.query('INSERT INTO schema_migrations (name, server_version) VALUES ($1, $2)', [name, version]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

// The transaction handle runs one statement per call (extended protocol), so split the script on top-level semicolons.
async function runScript(tx: { query(sql: string): Promise<unknown> }, sql: string): Promise<void> {
  for (const statement of splitStatements(sql)) await tx.query(statement);
}

/** Splits on `;` outside quotes, comments and dollar-quoted bodies (enough for hand-written migrations). */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    const rest = sql.slice(i);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      continue;
    }
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest);
    if (dollar) {
      const tag = dollar[0];
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end === -1 ? sql.length : end + tag.length;
      current += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === ch && sql[j + 1] === ch) j += 2;
        else if (sql[j] === ch) break;
        else j++;
      }
      current += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      i++;
      continue;
    }
    current += ch;
    i++;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
