// Runs one bench script (bench/*.mjs) under tsx and returns its exit status and output: the bench smoke tests'
// one helper. Figures are printed by the scripts, never asserted here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedPgliteDataDir } from '../../packages/server/test/helpers/template';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');

let pgdata: string | undefined;

/**
 * Has the servers the bench scripts start (bench/server.mjs, bench/cli.mjs) start on a copy of the migrated
 * template (packages/server/test/helpers/template.ts, keyed by the migrations), through KFORGE_BENCH_PGDATA: a
 * fresh data folder's first migration costs ~10 cpu-s a server, a copied one ~2.5 s to open. For a file's
 * beforeAll; returns what its afterAll calls. The scripts' figures are of serving, never of the first start, except
 * api.mjs's memory of a first start, which makes its own data folders and stays unseeded.
 */
export async function seedBenchServers(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'kforge-bench-seed-'));
  await seedPgliteDataDir(dir);
  pgdata = join(dir, 'pgdata');
  return () => {
    pgdata = undefined;
    rmSync(dir, { recursive: true, force: true });
  };
}

export function bench(script: string, args: string[], timeoutMs: number, env: Record<string, string> = {}) {
  const res = spawnSync(tsx, [join(root, 'bench', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, FORCE_COLOR: '0', ...(pgdata ? { KFORGE_BENCH_PGDATA: pgdata } : {}), ...env },
  });
  const out = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  return { status: res.status, out, tail: out.slice(-2000) };
}
