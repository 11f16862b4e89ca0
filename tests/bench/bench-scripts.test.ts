// The bench scripts run once each in a short mode, so they cannot rot (issue 19): each must exit 0 and print the
// figures it exists for. Figures only, never asserted: bench/README.md records them with the machine and date.
// The scripts that start servers or a browser (api, cli, web, two-servers, tuner-session, torch-tuner-session) are
// not run here: each takes minutes; they are run by hand when their figures are recorded.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');

function bench(script: string, args: string[], timeoutMs: number) {
  const res = spawnSync(tsx, [join(root, 'bench', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  const out = `${res.stdout ?? ''}${res.stderr ?? ''}`;
  return { status: res.status, out, tail: out.slice(-2000) };
}

describe('bench scripts in their short modes', () => {
  it('rerun-spread: identical code, ranked, quiet and beside a busy core', () => {
    const r = bench('rerun-spread.mjs', ['19_ReLU', '2', '--short'], 240_000);
    expect(r.status, r.tail).toBe(0);
    // Short mode times with the quick rules: 5 samples, too few for an interval.
    expect(r.out).toMatch(/as is #1: [\d.]+ ms, [\d.]+x \[(no interval|[\d.]+, [\d.]+)\]/);
    expect(r.out).toMatch(/one core busy: time spread [\d.]+%, speedup spread [\d.]+%/);
  }, 300_000);

  it('runner-profile: where the seconds of one evaluation go', () => {
    const r = bench('runner-profile.mjs', ['19_ReLU', '1', 'benchmark', '--short'], 240_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/evaluate\(\) wall\s+\d+ ms/);
    expect(r.out).toMatch(/correctness phase\s+\d+ ms/);
  }, 300_000);

  it('small-kernels: honest small kernels accepted on a busy machine', () => {
    const r = bench('small-kernels.mjs', ['1', '--short'], 280_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/1 runs per size, quick timing rules/);
  }, 300_000);

  it('tuner: the search against the OpenBLAS and STREAM anchors', () => {
    const r = bench('tuner.mjs', ['1'], 280_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/19_ReLU #1/);
  }, 300_000);
});
