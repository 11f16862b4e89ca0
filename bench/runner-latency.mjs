// Runner figures for bench/README.md: queued-to-verdict latency (ReLU, matmul), agreement with an independent
// timing loop of the same compiled kernel (side by side, interleaved), spread of 5 ranked reruns, and a good
// ReLU's bandwidth vs the measured peak. bench/runner-profile.mjs says where the seconds of one evaluation go.
// Run: node_modules/.bin/tsx bench/runner-latency.mjs [--short]   (prints figures; never fails on timing)
//   --short: one run of each step, ReLU only, with the test-only quick timing rules (CI's smoke run: tests/bench/)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverDevices, evaluate, loadCatalogue } from '../packages/runner/src/index.ts';

const root = new URL('..', import.meta.url).pathname;
const short = process.argv.includes('--short');
const timing = short ? { timing: 'quick' } : {};
const reps = (n) => (short ? 1 : n);
const kernels = (all) => (short ? all.slice(0, 1) : all);
const workDir = join(tmpdir(), 'kforge-runner-bench');
mkdirSync(workDir, { recursive: true });
const problems = loadCatalogue(join(root, 'problems'));
const device = discoverDevices({ workDir })[0];
const relu = readFileSync(join(root, 'packages/runner/test/candidates/relu_omp.c'), 'utf8');
const matmul = readFileSync(join(root, 'packages/runner/test/candidates/matmul_omp.c'), 'utf8');
const RELU_N = problems.get('19_ReLU').cases.benchmark[0].sizes.n;
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
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pct = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const load = () => loadavg()[0].toFixed(2);

console.log(
  `device ${device.id} (${device.name}, ${device.cores} cores): peaks ${device.peaks.bandwidth_gbps.toFixed(1)} GB/s, ${device.peaks.fp32_gflops.toFixed(0)} GFLOP/s (measured); load ${load()}`,
);

// Warm the build cache once (a real runner builds each problem's harness once), then time attempts: the problems
// timed below (ReLU alone in short mode).
for (const [p, s] of kernels([
  ['19_ReLU', relu],
  ['1_Square_matrix_multiplication_', matmul],
]))
  await evaluate(job(p, s), { problems, device, workDir, timing: 'quick' });

for (const [p, s, runs] of kernels([
  ['19_ReLU', relu, 5],
  ['1_Square_matrix_multiplication_', matmul, 3],
])) {
  const walls = [];
  let last;
  for (let i = 0; i < reps(runs); i++) {
    const t0 = performance.now();
    last = await evaluate(job(p, s), { problems, device, workDir, ...timing });
    walls.push((performance.now() - t0) / 1000);
  }
  const c = last.benchmarking_result?.cases[0];
  console.log(
    `${p}: ${last.verdict === 'accepted' ? '' : `(${last.message}) `}queued-to-verdict median ${median(walls).toFixed(2)} s (runs: ${walls.map((w) => w.toFixed(2)).join(', ')}); verdict ${last.verdict}; last run: median ${c?.optimized.median_ms.toFixed(3)} ms over ${c?.optimized.samples} samples (baseline ${c?.baseline.samples}); speedup ${last.benchmarking_result?.speedup.toFixed(2)}x; ${c?.gbps.toFixed(1)} GB/s, ${c?.gflops.toFixed(1)} GFLOP/s; load ${load()}`,
  );
}

// Independent timing: the same source, compiled with the same flags, in a plain C loop in its own process
// (no harness, no sandbox, its own clock around the call). Mode 0 gives each call what the harness gives a
// timed sample at this size: fresh inputs, then NaN-filled outputs, both written with non-temporal stores (so
// none of the data is cached when the call starts) and no separate flush. Mode 2 is the same with the inputs
// written by a parent process and the call made in a child, as the harness and its worker do. Mode 1 is the
// old harness's method: plain stores, then a buffer of twice the last-level cache written and read.
const loopDir = join(workDir, 'independent');
mkdirSync(loopDir, { recursive: true });
writeFileSync(join(loopDir, 'kernel.c'), relu);
writeFileSync(
  join(loopDir, 'loop.c'),
  `#define _GNU_SOURCE
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
void solution(const float* x, float* y, int64_t n);
/* Non-temporal stores at the widest vector this machine's compiler targets (-march=native): never one ISA baked in. */
#if defined(__AVX512F__)
#define VW 16
#define STREAM(p, t) _mm512_stream_ps((p), _mm512_load_ps(t))
#define STREAM_NAN(p) _mm512_stream_ps((p), _mm512_set1_ps(NAN))
#define FENCE() _mm_sfence()
#elif defined(__AVX__)
#define VW 8
#define STREAM(p, t) _mm256_stream_ps((p), _mm256_load_ps(t))
#define STREAM_NAN(p) _mm256_stream_ps((p), _mm256_set1_ps(NAN))
#define FENCE() _mm_sfence()
#elif defined(__SSE2__)
#define VW 4
#define STREAM(p, t) _mm_stream_ps((p), _mm_load_ps(t))
#define STREAM_NAN(p) _mm_stream_ps((p), _mm_set1_ps(NAN))
#define FENCE() _mm_sfence()
#else
#define VW 1
#define STREAM(p, t) (*(p) = *(t))
#define STREAM_NAN(p) (*(p) = NAN)
#define FENCE() __sync_synchronize()
#endif
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + t.tv_nsec * 1e-6; }
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return (x > y) - (x < y); }
static inline float val(uint32_t i, uint32_t s) { uint32_t h = (i ^ s) * 0x9e3779b1u + s; h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
  return (float)(int32_t)(h >> 8) * (2.0f / 16777216.0f) - 1.0f; }
static int64_t n; static int mode; static size_t fl; static char* f;
static void setup(float* x, float* y, int r) {
  uint32_t s = (uint32_t)(r + 4) * 0x2545f491u;
  if (mode != 1) { /* as the harness: non-temporal fresh inputs, then non-temporal NaN outputs, no flush */
    float tile[1024] __attribute__((aligned(64)));
    for (int64_t i = 0; i < n; i += 1024) {
      for (int j = 0; j < 1024; j++) tile[j] = val((uint32_t)(i + j), s);
      for (int j = 0; j < 1024; j += VW) STREAM(x + i + j, tile + j);
    }
    for (int64_t i = 0; i < n; i += VW) STREAM_NAN(y + i);
    FENCE();
  } else { /* the old harness: plain stores, then twice the LLC written and read */
    for (int64_t i = 0; i < n; i++) x[i] = val((uint32_t)i, s);
    for (int64_t i = 0; i < n; i++) y[i] = NAN;
    memset(f, r, fl); volatile unsigned long sink = 0; for (size_t i = 0; i < fl; i += 64) sink += (unsigned char)f[i];
  }
}
int main(int argc, char** argv) {
  n = atoll(argv[1]); const int calls = atoi(argv[2]); mode = atoi(argv[3]); fl = (size_t)atoll(argv[4]) * 2;
  f = malloc(fl); memset(f, 1, fl);
  int fd = memfd_create("data", 0); if (ftruncate(fd, n * 8)) return 1;
  int go[2], done[2]; if (pipe(go) || pipe(done)) return 1;
  double* t = malloc(sizeof(double) * calls);
  /* mode 2: the inputs are written by this process and the call made in a child (fork before any OpenMP),
     as the harness and its worker do, but with no harness, sandbox or outside clock: the child times itself. */
  pid_t pid = mode == 2 ? fork() : 0;
  char* b = mmap(NULL, n * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  float *x = (float*)b, *y = (float*)(b + n * 4);
  if (!(mode == 2 && pid == 0)) memset(b, 0, n * 8);
  char c = 0;
  for (int r = -3; r < calls; r++) {
    if (mode == 2 && pid > 0) { setup(x, y, r); if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1) return 1; continue; }
    if (mode == 2) { if (read(go[0], &c, 1) != 1) return 1; } else setup(x, y, r);
    double t0 = now(); solution(x, y, n); double t1 = now();
    if (r >= 0) t[r] = t1 - t0;
    if (mode == 2 && write(done[1], &c, 1) != 1) return 1;
  }
  if (mode == 2 && pid > 0) { waitpid(pid, NULL, 0); return 0; }
  qsort(t, calls, sizeof(double), cmp);
  printf("%.4f\\n", t[calls / 2]);
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
  '-lm',
]);
const llc =
  Number(readFileSync('/sys/devices/system/cpu/cpu0/cache/index3/size', 'utf8').replace('K', '')) * 1024 || 32 << 20;
const loop = (mode) =>
  Number(
    execFileSync(join(loopDir, 'loop'), [String(RELU_N), short ? '10' : '100', String(mode), String(llc)], {
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin', OMP_WAIT_POLICY: 'passive' },
    }).trim(),
  );
const rounds = [];
for (let i = 0; i < reps(5); i++) {
  const st = await evaluate(job('19_ReLU', relu), { problems, device, workDir, ...timing });
  rounds.push([st.benchmarking_result.cases[0].optimized.median_ms, loop(0), loop(2), loop(1)]);
}
const col = (k) => median(rounds.map((r) => r[k]));
const ratio = (k, l) => median(rounds.map((r) => r[k] / r[l] - 1));
console.log(
  `19_ReLU runner vs independent loops (median ms; ${rounds.length} interleaved rounds of runner / loop in one process / loop in two processes / loop the old way): ${rounds.map((r) => r.map((v) => v.toFixed(3)).join(' / ')).join('; ')}`,
);
console.log(
  `  medians ${[0, 1, 2, 3].map((k) => col(k).toFixed(3)).join(' / ')} ms; median of per-round ratios: runner vs one-process loop ${pct(ratio(0, 1))}, vs two-process loop ${pct(ratio(0, 2))}; two-process vs one-process loop ${pct(ratio(2, 1))}; the old way vs one-process loop ${pct(ratio(3, 1))}; load ${load()}`,
);

for (const [p, s] of kernels([
  ['19_ReLU', relu],
  ['1_Square_matrix_multiplication_', matmul],
])) {
  const times = [];
  const walls = [];
  for (let i = 0; i < reps(5); i++) {
    const t0 = performance.now();
    const st = await evaluate(job(p, s, { mode: 'ranked', secret_seed: 'bench-secret' }), {
      problems,
      device,
      workDir,
      ...timing,
    });
    walls.push((performance.now() - t0) / 1000);
    times.push(st.benchmarking_result?.optimized_time ?? Number.NaN);
  }
  const spread = (Math.max(...times) - Math.min(...times)) / median(times);
  console.log(
    `${p} ranked x${times.length}: ${times.map((t) => t.toFixed(3)).join(', ')} ms; spread (max-min)/median ${(spread * 100).toFixed(1)}%; wall median ${median(walls).toFixed(2)} s; load ${load()}`,
  );
}

const st = await evaluate(job('19_ReLU', relu), { problems, device, workDir, ...timing });
const c = st.benchmarking_result.cases[0];
console.log(
  `19_ReLU good kernel: ${c.gbps.toFixed(1)} GB/s = ${(c.fraction_of_peak_bandwidth * 100).toFixed(0)}% of the measured peak ${device.peaks.bandwidth_gbps.toFixed(1)} GB/s (cost model 8 bytes/element)`,
);
