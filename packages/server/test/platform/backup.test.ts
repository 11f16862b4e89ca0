// `kforge-server migrate`, `backup` and `restore` as real processes: the version each build records, and a populated
// database round-tripped through a backup (PGlite offline and online; Postgres through pg_dump and pg_restore on the
// Postgres pass).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { tableCounts } from '../../src/subcommands/backup.js';
import { runServerCommand, startServerProcess } from '../helpers/process.js';
import { migratedPostgresDatabase } from '../helpers/template.js';

const scratch = mkdtempSync(join(tmpdir(), 'kforge-backup-test-'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
});

async function pgliteCounts(pgdata: string): Promise<{ counts: Record<string, number>; emails: string[] }> {
  const db = await PGlite.create(pgdata);
  try {
    const counts = await tableCounts(async (sql) => (await db.query<Record<string, unknown>>(sql)).rows);
    const emails = (await db.query<{ email: string }>('SELECT email FROM users ORDER BY email')).rows.map(
      (r) => r.email,
    );
    return { counts, emails };
  } finally {
    await db.close();
  }
}

const user = () => ({
  email: `ops-${randomBytes(3).toString('hex')}@kforge.test`,
  password: `pw-${randomBytes(9).toString('hex')}`,
});

describe.skipIf(!!process.env.KFORGE_TEST_DATABASE_URL)('PGlite', () => {
  const dataDir = join(scratch, 'data');
  const env = { KFORGE_DATA_DIR: dataDir };

  test("migrate applies every migration and records this build's version; backup and restore round-trip it, offline and online", async () => {
    const version = await runServerCommand(['version'], env);
    expect(version.code, version.stderr).toBe(0);
    const v = version.stdout.trim();
    // The package's version and the commit it was built from (or, without git, the build's time).
    expect(v).toMatch(/^\d+\.\d+\.\d+\+([0-9a-f]{7,}(-dirty)?|built\.\d{8}T\d{4}Z)$/);

    const migrated = await runServerCommand(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/applied 0001_auth\.sql, .*0002_product/);
    const again = await runServerCommand(['migrate'], env);
    expect(again.stdout).toContain('the schema was current');

    const users = [user(), user()];
    for (const u of users) {
      const made = await runServerCommand(['create-user', '--email', u.email, '--password', u.password], env);
      expect(made.code, made.stderr).toBe(0);
    }
    const before = await pgliteCounts(join(dataDir, 'pgdata'));
    expect(before.emails).toEqual(users.map((u) => u.email).sort());
    const recorded = await PGlite.create(join(dataDir, 'pgdata'));
    const versions = (
      await recorded.query<{ server_version: string }>('SELECT DISTINCT server_version FROM schema_migrations')
    ).rows;
    await recorded.close();
    expect(versions).toEqual([{ server_version: v }]);

    // Offline: no server holds the data dir, the command dumps it itself.
    const offline = join(scratch, 'backups-offline');
    const b1 = await runServerCommand(['backup', offline], env);
    expect(b1.code, b1.stderr + b1.stdout).toBe(0);
    expect(b1.stdout).toMatch(/verified: \d+ tables, \d+ rows/);
    const file1 = join(offline, readdirSync(offline).find((f) => f.endsWith('.pglite.tar.gz')) as string);

    // Online: a running server holds the data dir and makes the dump on the command's request.
    const server = await startServerProcess({ ...env, KFORGE_LOCAL_RUNNER: '0' });
    cleanups.push(() => server.stop());
    const online = join(scratch, 'backups-online');
    const b2 = await runServerCommand(['backup', online], env);
    expect(b2.code, b2.stderr + b2.stdout + server.log()).toBe(0);
    expect(b2.stdout).toMatch(/verified: \d+ tables/);
    const file2 = join(online, readdirSync(online).find((f) => f.endsWith('.pglite.tar.gz')) as string);
    expect(await fetch(`${server.url}/healthz`).then((r) => r.status)).toBe(200);
    await server.stop();

    for (const [i, file] of [file1, file2].entries()) {
      const restoredDir = join(scratch, `restored-${i}`);
      const restored = await runServerCommand(['restore', file], { KFORGE_DATA_DIR: restoredDir });
      expect(restored.code, restored.stderr + restored.stdout).toBe(0);
      const after = await pgliteCounts(join(restoredDir, 'pgdata'));
      expect(after.emails).toEqual(before.emails);
      expect(after.counts.users).toBe(before.counts.users);
      expect(after.counts.schema_migrations).toBe(before.counts.schema_migrations);
      // A restore never overwrites a database.
      const twice = await runServerCommand(['restore', file], { KFORGE_DATA_DIR: restoredDir });
      expect(twice.code).toBe(1);
      expect(twice.stdout).toContain('already holds a database');
    }
    // The restored data dir serves: a server starts on it.
    const revived = await startServerProcess({
      KFORGE_DATA_DIR: join(scratch, 'restored-1'),
      KFORGE_LOCAL_RUNNER: '0',
    });
    cleanups.push(() => revived.stop());
    expect(await fetch(`${revived.url}/healthz`).then((r) => r.status)).toBe(200);
    await revived.stop();
  }, 600_000);
});

describe.skipIf(!process.env.KFORGE_TEST_DATABASE_URL)('Postgres', () => {
  test('backup (pg_dump, verified) and pg_restore into an empty database round-trip a populated database', async () => {
    const base = process.env.KFORGE_TEST_DATABASE_URL as string;
    const source = await migratedPostgresDatabase(base);
    cleanups.push(source.drop);
    const env = { KFORGE_DATA_DIR: join(scratch, 'pg-data'), DATABASE_URL: source.url };
    const u = user();
    const made = await runServerCommand(['create-user', '--email', u.email, '--password', u.password], env);
    expect(made.code, made.stderr).toBe(0);
    const dir = join(scratch, 'pg-backups');
    const b = await runServerCommand(['backup', dir], env);
    expect(b.code, b.stderr + b.stdout).toBe(0);
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.pgdump')) as string);
    expect(existsSync(file)).toBe(true);

    const target = `kf_restore_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${target}`);
    await admin.end();
    const targetUrl = new URL(base);
    targetUrl.pathname = `/${target}`;
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`);
      await c.end();
    });
    const restored = spawnSync(
      'pg_restore',
      ['--no-owner', '--exit-on-error', '--dbname', targetUrl.toString(), file],
      {
        encoding: 'utf8',
      },
    );
    expect(restored.status, restored.stderr).toBe(0);
    const counts = async (url: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return await tableCounts(async (sql) => (await c.query(sql)).rows);
      } finally {
        await c.end();
      }
    };
    const want = await counts(source.url);
    expect(want.users).toBeGreaterThan(0);
    expect(await counts(targetUrl.toString())).toEqual(want);
  }, 300_000);
});
