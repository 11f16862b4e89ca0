// Runs one bench script (bench/*.mjs) under tsx and returns its exit status and output: the bench smoke tests'
// one helper. Figures are printed by the scripts, never asserted here.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');

export function bench(script: string, args: string[], timeoutMs: number, env: Record<string, string> = {}) {
  const res = spawnSync(tsx, [join(root, 'bench', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  });
  const out = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  return { status: res.status, out, tail: out.slice(-2000) };
}
