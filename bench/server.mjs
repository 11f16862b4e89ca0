// A kforge-server for a bench script: its own data folder and port, a first superuser, the in-process cpu
// runner. Resolves once /readyz answers, with an SDK client signed in as that superuser.
// KFORGE_BENCH_PGDATA (the bench smoke tests, tests/bench/run-bench.ts): a migrated PGlite `pgdata` folder copied
// into each new data folder, so a smoke run skips the first migration (~10 cpu-s a server); unset, as a real run
// leaves it, every server starts on an empty data folder and migrates it.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;
export const admin = { email: 'bench@example.com', password: 'bench-password-1' };

/** Copies KFORGE_BENCH_PGDATA into a new PGlite data folder (not for a server on Postgres: DATABASE_URL). */
export function seedDataDir(dataDir, env = {}) {
  const template = process.env.KFORGE_BENCH_PGDATA;
  if (!template || (env.DATABASE_URL ?? process.env.DATABASE_URL)) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  cpSync(template, join(dataDir, 'pgdata'), { recursive: true });
}

/**
 * How a bench script runs kforge-server from its sources (needs no build): under tsx, or the bundle
 * KFORGE_SERVER_BIN names where the caller has just built it (scripts/test.mjs sets it: a start under tsx transpiles
 * the server's sources, ~8 cpu-s against ~3 for the bundle).
 */
export function sourceServerArgv() {
  const bin = process.env.KFORGE_SERVER_BIN;
  return bin ? [bin] : ['--import', 'tsx', join(root, 'packages/server/src/main.ts')];
}

/**
 * createClient: the SDK's (from dist, or from src under tsx); argv: how to run the server (default: the built
 * dist); env: settings on top of the bench's; readySeconds: how long it may take to answer /readyz.
 */
export async function startBenchServer({ createClient, argv, env = {}, readySeconds = 120 }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kforge-bench-'));
  seedDataDir(dataDir, env);
  const port = 18000 + Math.floor(Math.random() * 2000);
  const child = spawn(process.execPath, argv ?? [join(root, 'packages/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      KFORGE_DATA_DIR: dataDir,
      KFORGE_ADMIN_EMAIL: admin.email,
      KFORGE_ADMIN_PASSWORD: admin.password,
      KFORGE_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + readySeconds * 1000;
  while (
    !(await fetch(`${baseUrl}/readyz`)
      .then((r) => r.ok)
      .catch(() => false))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the bench server did not get ready (exit ${child.exitCode}, ${readySeconds} s at most)`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const client = createClient({ baseUrl });
  await client.auth.loginWithPassword({ username: admin.email, password: admin.password });
  return { baseUrl, client, stop };
}
