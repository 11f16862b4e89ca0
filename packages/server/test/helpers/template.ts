// One migrated database made once and copied for each test server: a fresh PGlite data directory costs ~4 s
// (initdb, then the migrations), a copied one ~0.1 s; on Postgres a database is cloned with CREATE DATABASE ... TEMPLATE.
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { migrationsDir } from '../../src/db/migrate.js';

const serverRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What a migrated empty database depends on: the migrations, the code that creates and migrates a database, and
 * PGlite's version. A template is named by this, so a change to any of them makes a new one (never a stale copy).
 */
function schemaKey(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsDir()).sort()) {
    hash.update(name);
    hash.update(readFileSync(join(migrationsDir(), name)));
  }
  for (const file of ['src/db/client.ts', 'src/db/migrate.ts', 'node_modules/@electric-sql/pglite/package.json'])
    hash.update(readFileSync(join(serverRoot, file)));
  return hash.digest('hex').slice(0, 16);
}

let key: string | undefined;
const templateKey = () => {
  key ??= schemaKey();
  return key;
};

/** Migrates a new empty database the way a server does at start (no first superuser: each test makes its own). */
async function migrateNew(env: Record<string, string>): Promise<void> {
  const ctx = await createContext(loadConfig(env), { skipBootstrap: true });
  await ctx.close();
}

let pgliteTemplate: Promise<string> | undefined;

/**
 * The migrated PGlite `pgdata` folder, made once per machine and schema (test files in parallel workers share it:
 * each builds in a folder of its own and renames it into place; the first rename wins).
 */
function pgliteTemplateDir(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const dir = join(tmpdir(), `kforge-test-pgdata-${process.getuid?.() ?? 0}-${templateKey()}`);
    if (existsSync(join(dir, 'PG_VERSION'))) return dir;
    const build = mkdtempSync(join(tmpdir(), 'kforge-test-template-'));
    try {
      await migrateNew({ KFORGE_DATA_DIR: build, KFORGE_LOG_LEVEL: 'warn' });
      try {
        renameSync(join(build, 'pgdata'), dir);
      } catch (error) {
        // Another worker put its copy there first: use that one.
        if (!existsSync(join(dir, 'PG_VERSION'))) throw error;
      }
    } finally {
      rmSync(build, { recursive: true, force: true });
    }
    return dir;
  })();
  return pgliteTemplate;
}

/** Puts a copy of the migrated template into `<dataDir>/pgdata` (a new data dir that has no database yet). */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'pgdata'))) return;
  const template = await pgliteTemplateDir();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
}

const templates = new Map<string, Promise<string>>();

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const databaseUrl = (baseUrl: string, name: string) => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The migrated template database on the server at `baseUrl`: made once per server and schema, as on PGlite. */
function postgresTemplate(baseUrl: string): Promise<string> {
  let made = templates.get(baseUrl);
  if (!made) {
    made = (async () => {
      const name = `kf_template_${templateKey()}`;
      const exists = await withClient(baseUrl, async (c) => {
        const rows = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        return rows.rowCount !== 0;
      });
      if (exists) return name;
      const build = `kf_template_build_${randomBytes(6).toString('hex')}`;
      // createContext writes a secret into the data dir: a folder of its own, removed after.
      const dataDir = mkdtempSync(join(tmpdir(), 'kforge-test-template-'));
      await withClient(baseUrl, (c) => c.query(`CREATE DATABASE ${build}`));
      try {
        await migrateNew({
          KFORGE_DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl(baseUrl, build),
          KFORGE_LOG_LEVEL: 'warn',
        });
        await withClient(baseUrl, (c) => c.query(`ALTER DATABASE ${build} RENAME TO ${name}`));
      } catch (error) {
        await withClient(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${build} WITH (FORCE)`));
        // Another worker renamed its copy into place first: use that one.
        const raced = await withClient(baseUrl, (c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
        if (raced.rowCount === 0) throw error;
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      return name;
    })();
    templates.set(baseUrl, made);
  }
  return made;
}

/** A new database on the server at `baseUrl`, cloned from the migrated template; its URL and a function that drops it. */
export async function migratedPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const template = await postgresTemplate(baseUrl);
  const name = `kf_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await withClient(baseUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      break;
    } catch (error) {
      // Two clones of one template at the same instant: Postgres refuses the second ("being accessed by other users").
      if (attempt >= 20 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  return {
    url: databaseUrl(baseUrl, name),
    drop: () => withClient(baseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
