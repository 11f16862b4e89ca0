// Runs `kforge-server` as a real child process, for multi-process tests: from source (node --import tsx src/main.ts),
// or the bundle the test script has just built from the same sources (KFORGE_SERVER_BIN: no transpiling per start).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = 'packages/server/src/main.ts';

/** node's arguments that start kforge-server: the built bundle when scripts/test.mjs names it, else the sources. */
function serverArgv(args: string[]): string[] {
  const bin = process.env.KFORGE_SERVER_BIN;
  return bin ? [bin, ...args] : ['--import', 'tsx', MAIN, ...args];
}

/** tsx resolves workspace packages to their sources through this (as vitest.config.ts does), not to a stale dist/. */
export const SOURCES_TSCONFIG = fileURLToPath(new URL('./tsconfig.sources.json', import.meta.url));

/**
 * The test run's shares (scripts/test.mjs), where set: the start-up peaks and the built C harnesses every process of
 * one run takes instead of making its own. A server or runner started as a process had neither, so each measured
 * the peaks again (1.4 cpu-s, 1-3 s under the timing lock, the other lane's timings waiting) and built its
 * harnesses again (about 20 such starts a run).
 */
export function testRunShares(): Record<string, string> {
  const shares: Record<string, string> = {};
  for (const name of ['KFORGE_CPU_PEAKS_SHARE', 'KFORGE_HARNESS_CACHE_SHARE']) {
    const value = process.env[name];
    if (value) shares[name] = value;
  }
  return shares;
}

/** Only what a server needs: the test runner's own environment (KFORGE_TEST_..., DATABASE_URL) never leaks in, bar
    the run's shares. */
function baseEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    TSX_TSCONFIG_PATH: SOURCES_TSCONFIG,
    ...testRunShares(),
    ...env,
  };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  log(): string;
  /** SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
  stop(): Promise<void>;
}

/** A server that tests kill and restart: its own data dir, a first superuser, the in-process runner on quick
    timing, and a short job lease and reaper interval, so a job a killed server left is run again within seconds. */
export function restartableServerEnv(o: {
  dataDir: string;
  admin: { email: string; password: string };
  databaseUrl?: string | null | undefined;
}): Record<string, string> {
  return {
    KFORGE_DATA_DIR: o.dataDir,
    KFORGE_ADMIN_EMAIL: o.admin.email,
    KFORGE_ADMIN_PASSWORD: o.admin.password,
    KFORGE_LOCAL_RUNNER: '1',
    KFORGE_RUNNER_TIMING: 'quick',
    KFORGE_JOB_LEASE_SECONDS: '3',
    KFORGE_REAPER_INTERVAL_MS: '300',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
  };
}

/** Starts `kforge-server` and resolves once it logs the port it listens on. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, serverArgv([]), {
    cwd: repoRoot,
    env: baseEnv({ HOST: '127.0.0.1', PORT: '0', KFORGE_LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      const m = /listening on [^:\s]+:(\d+)/.exec(log);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
    setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 60_000);
  });
  return {
    url,
    child,
    log: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs `kforge-server <args>` to completion; resolves with its exit code and output. */
export function runServerCommand(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, serverArgv(args), {
    cwd: repoRoot,
    env: baseEnv({ KFORGE_LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
