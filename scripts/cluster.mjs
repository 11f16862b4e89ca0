// A local cluster in one command: a throwaway Postgres, two kforge-server replicas and a kforge-runner given both.
//   node scripts/cluster.mjs        (after pnpm build) starts it, prints the URLs and the admin's password; Ctrl-C stops it
// startCluster() does the same for tests; every process runs from the built tree (packages/*/dist), as deploy/ does.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './postgres.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(root, 'packages/server/dist/main.js');
const RUNNER = join(root, 'packages/runner/dist/main.js');

/** Starts a child with each output line prefixed by its name; resolves once a line matches `ready` (if given). */
function child(name, args, env, ready, print) {
  const proc = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const onLine = (chunk) => {
    log += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line) print(`[${name}] ${line}`);
  };
  proc.stdout.on('data', onLine);
  proc.stderr.on('data', onLine);
  const started = new Promise((resolve, reject) => {
    if (!ready) return resolve(undefined);
    const check = () => {
      const m = ready.exec(log);
      if (m) resolve(m);
    };
    proc.stdout.on('data', check);
    proc.stderr.on('data', check);
    proc.once('exit', (code, signal) =>
      reject(new Error(`${name} exited (${code ?? signal}) while starting:\n${log}`)),
    );
  });
  return {
    name,
    proc,
    started,
    log: () => log,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Starts Postgres, replicas server-1 and server-2 (in that order, or together with `together: true`), then a runner
 * given both. Resolves with their URLs, the admin's credentials and stop(); `print` gets every output line.
 */
export async function startCluster({ print = () => {}, together = false, runnerEnv = {} } = {}) {
  for (const file of [SERVER, RUNNER])
    if (!existsSync(file)) throw new Error(`${file} is missing: run pnpm build first`);
  const pg = await startPostgres();
  const dirs = [];
  const procs = [];
  const stop = async () => {
    for (const p of procs.reverse()) await p.stop();
    pg.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  try {
    const secret = randomBytes(32).toString('hex');
    const runnerToken = randomBytes(24).toString('hex');
    const admin = { email: 'admin@localhost', password: randomBytes(12).toString('base64url') };
    // A test run's shares (scripts/test.mjs: start-up peaks, built harnesses) pass through; the product never sets them.
    const shares = Object.fromEntries(
      ['KFORGE_CPU_PEAKS_SHARE', 'KFORGE_HARNESS_CACHE_SHARE']
        .filter((k) => process.env[k])
        .map((k) => [k, process.env[k]]),
    );
    const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...shares };
    const replica = (name) => {
      const dataDir = mkdtempSync(join(tmpdir(), `kforge-cluster-${name}-`));
      dirs.push(dataDir);
      const p = child(
        name,
        [SERVER],
        {
          ...base,
          DATABASE_URL: pg.url,
          HOST: '127.0.0.1',
          PORT: '0',
          KFORGE_DATA_DIR: dataDir,
          KFORGE_SECRET: secret,
          KFORGE_RUNNER_TOKEN: runnerToken,
          KFORGE_LOCAL_RUNNER: '0',
          KFORGE_ADMIN_EMAIL: admin.email,
          KFORGE_ADMIN_PASSWORD: admin.password,
          KFORGE_LOG_LEVEL: 'info',
        },
        /listening on [^:\s]+:(\d+)/,
        print,
      );
      procs.push(p);
      return p.started.then((m) => `http://127.0.0.1:${m[1]}`);
    };
    const urls = together
      ? await Promise.all([replica('server-1'), replica('server-2')])
      : [await replica('server-1'), await replica('server-2')];
    const workDir = mkdtempSync(join(tmpdir(), 'kforge-cluster-runner-'));
    dirs.push(workDir);
    const runner = child(
      'runner',
      [RUNNER, ...urls.flatMap((u) => ['--server', u]), '--work-dir', workDir, '--name', 'cluster-runner'],
      {
        ...base,
        KFORGE_RUNNER_TOKEN: runnerToken,
        ...(process.env.KFORGE_ALLOW_UNSANDBOXED
          ? { KFORGE_ALLOW_UNSANDBOXED: process.env.KFORGE_ALLOW_UNSANDBOXED }
          : {}),
        ...runnerEnv,
      },
      /registered as /,
      print,
    );
    procs.push(runner);
    await runner.started;
    return { databaseUrl: pg.url, urls, admin, runnerToken, processes: procs, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cluster = await startCluster({ print: (line) => process.stderr.write(`${line}\n`) });
  console.log(`postgres  ${cluster.databaseUrl}`);
  console.log(`server-1  ${cluster.urls[0]}`);
  console.log(`server-2  ${cluster.urls[1]}`);
  console.log(`admin     ${cluster.admin.email} / ${cluster.admin.password}`);
  console.log('runner    given both replicas; Ctrl-C stops everything');
  await new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await cluster.stop();
}
