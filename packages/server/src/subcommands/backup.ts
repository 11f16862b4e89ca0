// `kforge-server backup DIR`: a verified backup of the configured database into DIR.
//   Postgres (DATABASE_URL): pg_dump's custom format (online), verified by pg_restore --list against the live tables.
//   PGlite (the data dir): PGlite's dumpDataDir (a tar.gz of the data dir, consistent, taken by the process that has it
//   open): by this command when no server has the data dir, else by the running server (online: this command asks it
//   through a request file and SIGUSR2, and waits). Verified by loading the dump into an in-memory PGlite and counting
//   every table's rows against the source.
// `kforge-server restore FILE` (PGlite): a new data dir (KFORGE_DATA_DIR, which must not hold a database yet) from a
// dump. A Postgres dump is restored with pg_restore (docs/operations.md, "Backups and restore").
// `kforge-server migrate`: applies the migrations and exits.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { LOCK_FILE, lockDataDir } from '../db/dir-lock.js';
import { makePrivate } from '../db/private-dir.js';
import { parseArgs } from './args.js';

export const BACKUP_USAGE = 'usage: kforge-server backup DIR     a verified backup of the database into DIR';
export const RESTORE_USAGE =
  'usage: kforge-server restore FILE   a new PGlite data dir (KFORGE_DATA_DIR) from a backup';

const run = promisify(execFile);
const PGLITE_OPTIONS = { postgresqlconf: ['shared_buffers=16MB'] };
/** The running server's request file: `{"dir": ..., "name": ...}`; it answers with `<name>.json` in that dir. */
export const BACKUP_REQUEST = 'backup-request.json';

type Query = (sql: string) => Promise<Array<Record<string, unknown>>>;

/** Every table of the public schema with its row count, by name. */
export async function tableCounts(query: Query): Promise<Record<string, number>> {
  const tables = await query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
  const out: Record<string, number> = {};
  for (const t of tables) {
    const name = String(t.tablename);
    const rows = await query(`SELECT count(*)::int AS n FROM public."${name.replace(/"/g, '""')}"`);
    out[name] = Number(rows[0]?.n ?? 0);
  }
  return out;
}

export interface BackupResult {
  file: string;
  bytes: number;
  tables: Record<string, number>;
}

/** A dump loaded into an in-memory PGlite has the same tables with the same row counts as `source`, or this throws. */
export async function verifyPgliteDump(file: string, source: Record<string, number>): Promise<void> {
  const copy = await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: new Blob([readFileSync(file)]) });
  try {
    const counts = await tableCounts(async (sql) => (await copy.query<Record<string, unknown>>(sql)).rows);
    const want = JSON.stringify(source);
    if (JSON.stringify(counts) !== want)
      throw new Error(`the backup ${file} does not match the database: ${JSON.stringify(counts)} against ${want}`);
  } finally {
    await copy.close();
  }
}

/** Dumps an open PGlite into `dir` and verifies the file; the running server calls this for an online backup. */
export async function dumpPglite(
  pglite: { dumpDataDir(c?: 'gzip' | 'none' | 'auto'): Promise<Blob>; query: PGlite['query'] },
  dir: string,
  name: string,
): Promise<BackupResult> {
  const tables = await tableCounts(async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows);
  const blob = await pglite.dumpDataDir('gzip');
  const file = join(dir, `${name}.pglite.tar.gz`);
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 });
  await verifyPgliteDump(file, tables);
  return { file, bytes: statSync(file).size, tables };
}

/** The running server's side of an online PGlite backup (SIGUSR2): reads the request, dumps, answers. */
export async function serveBackupRequest(dataDir: string, db: Database): Promise<void> {
  const requestFile = join(dataDir, BACKUP_REQUEST);
  if (!existsSync(requestFile) || !db.dumpDataDir) return;
  const request = JSON.parse(readFileSync(requestFile, 'utf8')) as { dir: string; name: string };
  rmSync(requestFile, { force: true });
  const answer = join(request.dir, `${request.name}.json`);
  try {
    const dump = db.dumpDataDir;
    const result = await dumpPglite(
      { dumpDataDir: (c) => dump(c), query: ((sql: string) => db.query(sql).then((rows) => ({ rows }))) as never },
      request.dir,
      request.name,
    );
    writeFileSync(answer, JSON.stringify({ ok: true, ...result }));
  } catch (error) {
    writeFileSync(answer, JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) }));
  }
}

async function backupPostgres(url: string, dir: string, name: string, db: Database): Promise<BackupResult> {
  const file = join(dir, `${name}.pgdump`);
  await run('pg_dump', ['--format=custom', '--no-owner', '--file', file, '--dbname', url], {
    maxBuffer: 16 << 20,
  }).catch((e: Error & { stderr?: string }) => {
    throw new Error(
      `pg_dump failed (is the PostgreSQL client installed, and of the server's version or newer?): ${e.stderr ?? e.message}`,
    );
  });
  const tables = await tableCounts((sql) => db.query(sql));
  // Verify: the archive reads back, and holds the data of every live table.
  const { stdout } = await run('pg_restore', ['--list', file], { maxBuffer: 64 << 20 });
  const missing = Object.keys(tables).filter((t) => !new RegExp(`TABLE DATA public ${t} `).test(stdout));
  if (missing.length > 0) throw new Error(`the backup ${file} lacks the data of ${missing.join(', ')}`);
  return { file, bytes: statSync(file).size, tables };
}

async function backupPglite(dataDir: string, dir: string, name: string): Promise<BackupResult> {
  let unlock: (() => void) | undefined;
  try {
    unlock = lockDataDir(dataDir);
  } catch {
    return askServer(dataDir, dir, name);
  }
  try {
    const pglite = await PGlite.create(join(dataDir, 'pgdata'), PGLITE_OPTIONS);
    try {
      return await dumpPglite(pglite, dir, name);
    } finally {
      await pglite.close();
      makePrivate(dataDir);
    }
  } finally {
    unlock();
  }
}

/** Online: the server that holds the data dir dumps it (request file, SIGUSR2) and answers `<name>.json`. */
async function askServer(dataDir: string, dir: string, name: string): Promise<BackupResult> {
  const pid = Number.parseInt(readFileSync(join(dataDir, LOCK_FILE), 'utf8'), 10);
  writeFileSync(join(dataDir, BACKUP_REQUEST), JSON.stringify({ dir, name }), { mode: 0o600 });
  process.kill(pid, 'SIGUSR2');
  const answer = join(dir, `${name}.json`);
  for (let waited = 0; waited < 600_000; waited += 200) {
    if (existsSync(answer)) {
      const text = readFileSync(answer, 'utf8');
      if (text) {
        rmSync(answer, { force: true });
        const r = JSON.parse(text) as { ok: boolean; error?: string } & BackupResult;
        if (!r.ok) throw new Error(`the running server (pid ${pid}) could not back up: ${r.error}`);
        return r;
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the running server (pid ${pid}) did not answer the backup request within 10 minutes`);
}

/** Returns the exit code: 0 backed up and verified, 1 failed, 2 bad arguments. */
export async function backupCommand(
  argv: string[],
  config: Config,
  openDb: () => Promise<Database>,
  out: (line: string) => void = console.log,
): Promise<number> {
  const target = parseArgs(argv).positional[0];
  if (!target) {
    out(BACKUP_USAGE);
    return 2;
  }
  const dir = resolve(target);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = `kforge-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  let result: BackupResult;
  if (config.databaseUrl?.startsWith('postgres')) {
    const db = await openDb();
    try {
      result = await backupPostgres(config.databaseUrl, dir, name, db);
    } finally {
      await db.close();
    }
  } else if (config.databaseUrl) {
    out(`kforge-server backup: nothing to back up in ${config.databaseUrl}`);
    return 1;
  } else result = await backupPglite(config.dataDir, dir, name);
  const rows = Object.values(result.tables).reduce((a, b) => a + b, 0);
  out(
    `kforge-server backup: ${result.file} (${result.bytes} bytes); verified: ${Object.keys(result.tables).length} tables, ${rows} rows`,
  );
  return 0;
}

/** PGlite: a new data dir from a dump made by `backup`. Refuses a data dir that already holds a database. */
export async function restoreCommand(
  argv: string[],
  config: Config,
  out: (line: string) => void = console.log,
): Promise<number> {
  const file = parseArgs(argv).positional[0];
  if (!file || config.databaseUrl) {
    out(
      config.databaseUrl
        ? 'kforge-server restore: for Postgres use pg_restore (docs/operations.md, "Backups and restore")'
        : RESTORE_USAGE,
    );
    return 2;
  }
  const pgdata = join(config.dataDir, 'pgdata');
  if (existsSync(join(pgdata, 'PG_VERSION'))) {
    out(`kforge-server restore: ${pgdata} already holds a database; point KFORGE_DATA_DIR at a new directory`);
    return 1;
  }
  mkdirSync(pgdata, { recursive: true, mode: 0o700 });
  const unlock = lockDataDir(config.dataDir);
  try {
    const previous = process.umask(0o077);
    try {
      const pglite = await PGlite.create(pgdata, { ...PGLITE_OPTIONS, loadDataDir: new Blob([readFileSync(file)]) });
      const tables = await tableCounts(async (sql) => (await pglite.query<Record<string, unknown>>(sql)).rows);
      await pglite.close();
      out(`kforge-server restore: ${config.dataDir} from ${file}: ${Object.keys(tables).length} tables`);
    } finally {
      process.umask(previous);
    }
    makePrivate(config.dataDir);
  } finally {
    unlock();
  }
  return 0;
}
