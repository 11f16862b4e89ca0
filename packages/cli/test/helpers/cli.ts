// Runs the real `kforge` as a child process: built once per test file (the same tsup bundle that ships) into
// a folder of its own, with an isolated HOME and config directory and only the environment a test gives it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOptions } from '../../tsup.config.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url));
let built: Promise<string> | undefined;

/** Builds the CLI into packages/cli/node_modules/.kforge-test/<id>/ (so its dependencies resolve); returns bin.js. */
export function buildCli(): Promise<string> {
  built ??= (async () => {
    if (process.env.KFORGE_CLI_BIN) return process.env.KFORGE_CLI_BIN;
    const { build } = await import('tsup');
    const base = join(packageRoot, 'node_modules', '.kforge-test');
    mkdirSync(base, { recursive: true });
    const outDir = mkdtempSync(join(base, 'build-'));
    await build({ ...buildOptions, outDir, clean: false, silent: true, config: false });
    return join(outDir, 'bin.js');
  })();
  return built;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = unknown>(): T;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

/** A fresh HOME and XDG_CONFIG_HOME, and the bare minimum of the parent's environment (PATH). */
export function isolatedHome(): { HOME: string; XDG_CONFIG_HOME: string } {
  const home = mkdtempSync(join(tmpdir(), 'kforge-cli-home-'));
  return { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
}

export function kforge(args: string[], options: RunOptions = {}): Promise<CliResult> {
  return buildCli().then(
    (bin) =>
      new Promise<CliResult>((resolve, reject) => {
        const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
        for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
        const child = spawn(process.execPath, [bin, ...args], {
          env,
          cwd: options.cwd ?? packageRoot,
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk;
        });
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({
            code,
            stdout,
            stderr,
            json<T>() {
              try {
                return JSON.parse(stdout) as T;
              } catch {
                throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
              }
            },
          });
        });
        child.stdin.end(options.input ?? '');
      }),
  );
}
