#!/usr/bin/env node
// kforge-server: `kforge-server` serves everything; `kforge-server create-user ...` adds a user and exits.
import { setFlagsFromString } from 'node:v8';
import { backupCommand, restoreCommand, serveBackupRequest } from './subcommands/backup.js';
import { createUserCommand } from './subcommands/create-user.js';
import { problemsCheckCommand } from './subcommands/problems-check.js';
import { loadConfig, StartupError } from './config.js';
import { createContext } from './context.js';
import { openDatabase } from './db/client.js';
import { migrate, serverVersion } from './db/migrate.js';
import { withSecretFiles } from './secret-files.js';
import { startServer } from './server.js';

/** Commands that run and exit (seconds): the database's WebAssembly compiled by V8's baseline tier only. */
const ONE_SHOT = new Set(['create-user', 'migrate', 'backup', 'restore']);

async function main(argv: string[]): Promise<number> {
  // X_FILE settings (secrets from files) read into X before anything parses the environment.
  const config = loadConfig(withSecretFiles(process.env));
  const [command, ...rest] = argv;
  // Its optimizing tier recompiles PGlite's hot functions in the background, which pays off in a server that runs
  // for hours and not in a command that exits in a second: `create-user` took 1.5 cpu-s with it and 0.8 without
  // (1.0 s and 0.65 s of wall time, 2-core VM, 2026-11-28). Set before the database's module is compiled.
  if (command !== undefined && ONE_SHOT.has(command)) setFlagsFromString('--liftoff-only');
  if (command === 'create-user') return createUserCommand(rest, config);
  if (command === 'problems' && rest[0] === 'check') return problemsCheckCommand(rest.slice(1));
  if (command === 'migrate') return migrateCommand(config);
  if (command === 'backup') return backupCommand(rest, config, () => openDatabase(config));
  if (command === 'restore') return restoreCommand(rest, config);
  if (command === 'version' || command === '--version') {
    console.log(serverVersion());
    return 0;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(
      'usage: kforge-server            start the server (configuration from the environment, see docs/operations.md)',
    );
    console.log('       kforge-server create-user --email E --password P [--superuser] [--full-name N]');
    console.log('       kforge-server problems check DIR... [--json]   load KernelBench-format files, print sizes');
    console.log('       kforge-server migrate          apply the database migrations and exit');
    console.log('       kforge-server backup DIR       a verified backup of the database into DIR (online)');
    console.log('       kforge-server restore FILE     a new PGlite data dir (KFORGE_DATA_DIR) from a backup');
    console.log('       kforge-server version          this build: version+commit');
    return 0;
  }
  if (command !== undefined && command !== 'serve') {
    console.error(`kforge-server: unknown command '${command}'; try kforge-server --help`);
    return 2;
  }
  const ctx = await createContext(config);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(ctx);
  } catch (error) {
    // The port in use, say: close the database (and free its data directory) before saying so.
    await ctx.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new StartupError(
        `port ${config.port} on ${config.host} is already in use (another kforge-server?): stop what listens there, or set PORT to another port`,
      );
    throw error;
  }
  ctx.log.info(
    `kforge-server listening on ${config.host}:${server.port}; open ${config.publicUrl} (data: ${config.databaseUrl ? 'Postgres' : config.dataDir})`,
  );
  // `kforge-server backup` on a PGlite data dir this server holds: an online dump, asked for by SIGUSR2.
  process.on('SIGUSR2', () => {
    serveBackupRequest(config.dataDir, ctx.db).catch((err) => ctx.log.error('online backup failed', { err }));
  });
  await new Promise<void>((resolve) => {
    const shutdown = (signal: string) => {
      ctx.log.info(`${signal} received, shutting down`);
      resolve();
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });
  await server.stop();
  return 0;
}

/** `kforge-server migrate`: the migrations this build has, applied; nothing else started. */
async function migrateCommand(config: Parameters<typeof openDatabase>[0]): Promise<number> {
  const db = await openDatabase(config);
  try {
    const applied = await migrate(db);
    console.log(
      `kforge-server migrate: ${applied.length ? `applied ${applied.join(', ')}` : 'the schema was current'} (${serverVersion()}, ${db.kind})`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const message =
      err instanceof StartupError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    console.error(`kforge-server: ${message}`);
    process.exit(1);
  },
);
