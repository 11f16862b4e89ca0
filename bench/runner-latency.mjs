// Runner figures for bench/README.md: queued-to-verdict latency (ReLU, matmul), agreement with an independent
// timing loop of the same compiled kernel, spread of 5 ranked reruns, and a good ReLU's bandwidth vs the measured peak.
// Run: node_modules/.bin/tsx bench/runner-latency.mjs   (prints figures; never fails on timing)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverDevices, evaluate, loadCatalogue } from '../packages/runner/src/index.ts';

const root = new URL('..', import.meta.url).pathname;
const workDir = join(tmpdir(), 'kforge-runner-bench');
mkdirSync(workDir, { recursive: true });
const problems = loadCatalogue(join(root, 'problems'));
const device = discoverDevices({ workDir })[0];
const relu = readFileSync(join(root, 'packages/runner/test/candidates/relu_omp.c'), 'utf8');
const matmul = readFileSync(join(root, 'packages/runner/test/candidates/matmul_omp.c'), 'utf8');
const job = (problem, source, extra = {}) => ({
  kind: 'attempt',
  target_id: 'bench',
  mode: 'benchmark',
  problem_name: problem,
  device: device.id,
  language: 'c',
  source,
  ...extra,
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `device ${device.id} (${device.name}, ${device.cores} cores): peaks ${device.peaks.bandwidth_gbps.toFixed(1)} GB/s, ${device.peaks.fp32_gflops.toFixed(0)} GFLOP/s (measured)`,
);

// Warm the build cache once (a real runner builds each problem's harness once), then time attempts.
for (const [p, s] of [
  ['19_ReLU', relu],
  ['1_Square_matrix_multiplication_', matmul],
])
  await evaluate(job(p, s), { problems, device, workDir, timing: 'quick' });

for (const [p, s] of [
  ['19_ReLU', relu],
  ['1_Square_matrix_multiplication_', matmul],
]) {
  const walls = [];
  let last;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    last = await evaluate(job(p, s), { problems, device, workDir });
    walls.push((performance.now() - t0) / 1000);
  }
  const c = last.benchmarking_result?.cases[0];
  console.log(
    `${p}: ${last.verdict === 'accepted' ? '' : `(${last.message}) `}queued-to-verdict median ${median(walls).toFixed(2)} s (runs: ${walls.map((w) => w.toFixed(2)).join(', ')}); verdict ${last.verdict}; median ${c?.optimized.median_ms.toFixed(3)} ms over ${c?.optimized.samples} samples; speedup ${last.benchmarking_result?.speedup.toFixed(2)}x; ${c?.gbps.toFixed(1)} GB/s, ${c?.gflops.toFixed(1)} GFLOP/s`,
  );
}

// Independent timing: the same source compiled with the same flags into a plain C loop (own inputs, cache flush, no harness).
const loopDir = join(workDir, 'independent');
mkdirSync(loopDir, { recursive: true });
writeFileSync(join(loopDir, 'kernel.c'), relu);
writeFileSync(
  join(loopDir, 'loop.c'),
  `#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
void solution(const float* x, float* y, int64_t n);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec * 1e-6; }
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return (x > y) - (x < y); }
int main(void) {
  const int64_t n = 16777216; const size_t fl = 64u << 20;
  float *x = malloc(n * 4), *y = malloc(n * 4); char* f = malloc(fl);
  double t[60];
  for (int r = 0; r < 63; r++) {
    for (int64_t i = 0; i < n; i++) x[i] = (float)((i * 2654435761u + r) % 2001) / 1000.0f - 1.0f;
    memset(y, 0xff, n * 4); memset(f, r, fl);
    double t0 = now(); solution(x, y, n); double t1 = now();
    if (r >= 3) t[r - 3] = t1 - t0;
  }
  qsort(t, 60, sizeof(double), cmp);
  printf("%.4f\\n", t[30]);
  return 0;
}
`,
);
execFileSync('cc', [
  '-O3',
  '-march=native',
  '-fopenmp',
  '-o',
  join(loopDir, 'loop'),
  join(loopDir, 'loop.c'),
  join(loopDir, 'kernel.c'),
]);
const pairs = [];
for (let i = 0; i < 3; i++) {
  const runner = (await evaluate(job('19_ReLU', relu), { problems, device, workDir })).benchmarking_result.cases[0]
    .optimized.median_ms;
  const independent = Number(
    execFileSync(join(loopDir, 'loop'), {
      encoding: 'utf8',
      env: { ...process.env, OMP_WAIT_POLICY: 'passive' },
    }).trim(),
  );
  pairs.push([runner, independent]);
}
console.log(
  `19_ReLU runner vs independent loop (median ms, 3 pairs): ${pairs.map(([a, b]) => `${a.toFixed(3)} vs ${b.toFixed(3)} (${(((a - b) / b) * 100).toFixed(1)}%)`).join('; ')}`,
);

for (const [p, s] of [
  ['19_ReLU', relu],
  ['1_Square_matrix_multiplication_', matmul],
]) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const st = await evaluate(job(p, s, { mode: 'ranked', secret_seed: 'bench-secret' }), {
      problems,
      device,
      workDir,
    });
    times.push(st.benchmarking_result?.optimized_time ?? Number.NaN);
  }
  const spread = (Math.max(...times) - Math.min(...times)) / median(times);
  console.log(
    `${p} ranked x5: ${times.map((t) => t.toFixed(3)).join(', ')} ms; spread (max-min)/median ${(spread * 100).toFixed(1)}%`,
  );
}

const st = await evaluate(job('19_ReLU', relu), { problems, device, workDir });
const c = st.benchmarking_result.cases[0];
console.log(
  `19_ReLU good kernel: ${c.gbps.toFixed(1)} GB/s = ${(c.fraction_of_peak_bandwidth * 100).toFixed(0)}% of the measured peak ${device.peaks.bandwidth_gbps.toFixed(1)} GB/s (cost model 8 bytes/element)`,
);
