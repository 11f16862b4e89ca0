// The bench scripts run once each in a short mode, so they cannot rot (issue 19): each must exit 0 and print the
// figures it exists for. Figures only, never asserted: bench/README.md records them with the machine and date.
// This file holds the ones that time kernels in this process or through one server (the runner-and-timing lane);
// bench-product.test.ts the ones that start several servers or a browser (the product lane), and bench-faces.test.ts
// the ones that time no kernel (the parallel pass). anchors.mjs is a module of tuner.mjs and tuner-session.mjs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, seedBenchServers } from './run-bench';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The servers' in-process runners time with the test-only quick rules: a smoke run. */
const QUICK = { KFORGE_RUNNER_TIMING: 'quick' };

// The bench servers start on a copy of the migrated template, not an empty data folder (run-bench.ts).
let unseed = () => {};
beforeAll(async () => {
  unseed = await seedBenchServers();
}, 120_000);
afterAll(() => unseed());

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
    // OpenBLAS under its own detection and the best kernel it can be forced to (issue 34), each named.
    expect(r.out).toMatch(/OpenBLAS OPENBLAS_CORETYPE=\(unset\): kernel \w+, best [\d.]+ ms/);
    expect(r.out).toMatch(/OpenBLAS default kernel: \w+; best kernel: \w+ \(OPENBLAS_CORETYPE=/);
    expect(r.out).toMatch(/BEST 1_Square_matrix_multiplication_: \d+ GFLOP\/s .* of the runner's measured fp32 peak/);
    expect(r.out).toMatch(/19_ReLU #1/);
  }, 300_000);

  it('runner-latency: queued-to-verdict, the independent loops, a ranked run', () => {
    const r = bench('runner-latency.mjs', ['--short'], 240_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/19_ReLU: queued-to-verdict median [\d.]+ s/);
    expect(r.out).toMatch(/runner vs one-process loop [-+][\d.]+%/);
    expect(r.out).toMatch(/19_ReLU ranked x1: [\d.]+ ms/);
  }, 300_000);

  it('tuner-session: the tuner through the product, against the anchors', () => {
    const r = bench('tuner-session.mjs', ['1', '19_ReLU'], 280_000, QUICK);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/19_ReLU: best #1 [\d.]+ ms, [\d.]+x the reference/);
  }, 300_000);

  it('keepalive: a live session polled over one keep-alive connection, resets counted', () => {
    const r = bench('keepalive.mjs', ['--short'], 280_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/keep-alive polling: \d+ requests in 8 s, \d+ answered, resets \d+, other errors \d+/);
  }, 300_000);

  it('cuda: a rehearsal without a GPU (every source compiles with nvcc), and the bundle for a GPU machine runs', () => {
    // On a GPU machine the same script checks verdicts and prints the figures (bench/README.md, "CUDA"); CI has no
    // GPU, so this keeps the script, its kernels and the bundle from rotting.
    // `broken` is one of the earlier cases, which only --all runs since issue 32's default set.
    const r = bench('cuda.mjs', ['--quick', '--all', '--rehearse', 'relu good', 'broken', 'forged early'], 280_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/relu broken \(compile\): compile_error/);
    expect(r.out).toMatch(/forged early reply: runtime_error/);
    const b = spawnSync('node', [join(root, 'bench/cuda-bundle.mjs')], { encoding: 'utf8', timeout: 120_000 });
    expect(b.status, `${b.stdout}${b.stderr}`).toBe(0);
    const run = spawnSync('sh', ['packages/runner/.gpu/run.sh', '--quick', '--all', '--rehearse', 'broken'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/1 case as expected, 0 not/);
  }, 300_000);

  it('cuda-facts: a rehearsal without a GPU (issue 37: facts from ptxas, the ncu run it would make)', () => {
    const r = bench('cuda-facts.mjs', ['--rehearse'], 280_000);
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/PASS {2}ReLU facts from ptxas: _Z4reluPKfPfl \d+ registers/);
    expect(r.out).toMatch(/PASS {2}tiled matmul facts from ptxas/);
    expect(r.out).toMatch(/ncu .*would run, in .*--kernel-name regex:\^\(relu\|kf_tiled_gemm\)\$/);
    // 8 not checked here: the SASS, the ncu figures and each evaluation's counters (issue 37 item 2) need a GPU.
    expect(r.out).toMatch(/2 passed, 0 failed, 8 not checked/);
  }, 300_000);

  it('torch-tuner-session: the tuner on a pytorch problem through the product', () => {
    // Sizes scaled to 16 MiB (the script's own default is 64, for figures): a smoke run of the same steps, as the
    // server's and the cli's pytorch tests run them.
    const r = bench('torch-tuner-session.mjs', ['1', '101_HardSigmoid'], 280_000, {
      ...QUICK,
      KFORGE_TORCH_BUDGET_MB: '16',
    });
    expect(r.status, r.tail).toBe(0);
    expect(r.out).toMatch(/best: #1 [\d.]+ ms, [\d.]+x eager PyTorch/);
  }, 300_000);
});
