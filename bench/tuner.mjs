// The tuner's search on this machine, whatever its ISA, measured against the libraries it should be compared with:
// 1_Square_matrix_multiplication_ (n = 1024) vs OpenBLAS sgemm, and 19_ReLU (n = 16M) vs a STREAM-like triad
// (non-temporal and plain stores). The tuner sees this machine's ISA, registers and caches as the runner reports
// them. Each attempt is compiled with the runner's flags and timed interleaved with the anchors in one process
// (best of 21 calls each, caches warm; 3 in a run of 1 or 2 attempts, the smoke test's).
// OpenBLAS is compared at its best kernel for this machine, not only the one it detects: Debian's dynamic-arch build
// misdetects some Intel VMs and falls back to its SSE3 "Prescott" kernel. Before the attempts, sgemm is timed in a
// child process per `OPENBLAS_CORETYPE` this CPU can run (the detected default; SkylakeX, Cooperlake and
// SapphireRapids where AVX-512; Haswell where AVX2 + FMA; Zen on AMD), each named by the kernel OpenBLAS actually
// loaded (it falls back when the CPU lacks a kernel's instructions); the attempts are timed beside the fastest (by one
// thread's cpu time, which a shared machine's load moves far less than wall-clock time), and
// the tuner's best once more beside the default. Matmul is also stated as a share of the runner's measured fp32 peak.
// Run: node --import tsx bench/tuner.mjs [attempts]     (needs gcc and libopenblas-dev)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuInfo, measureCpuPeaks } from '../packages/runner/src/devices/cpu.ts';
import { createAgent } from '../packages/server/src/agents/index.ts';
import { defaultProblemsDir } from '../packages/server/src/agents/tuner/space.ts';
import { cblasInclude, gflops, machine } from './anchors.mjs';

const ATTEMPTS = Number(process.argv[2] ?? 12);
// Calls per OpenBLAS kernel when choosing the best, and per side in each attempt's timing (a short run, as the
// bench-scripts test makes, takes fewer: best of 3, not 21).
const KERNEL_REPS = ATTEMPTS <= 2 ? 3 : 21;
const CBLAS = cblasInclude();
if (!CBLAS) throw new Error('no cblas.h found: install libopenblas-dev');

const COMMON = `#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <math.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static int cmp(const void*a,const void*b){double d=*(const double*)a-*(const double*)b;return (d>0)-(d<0);}
static double best(double*t,int k){qsort(t,k,sizeof*t,cmp);return t[0];}
`;
const HARNESS = {
  '1_Square_matrix_multiplication_': {
    n: 1024,
    libs: ['-lopenblas'],
    main: `${COMMON}#include <cblas.h>
#include <unistd.h>
void solution(const float* A, const float* B, float* C, int64_t n);
int main(int argc,char**argv){ int64_t n=1024; int k=argc>1?atoi(argv[1]):21; if(k<1||k>21)k=21;
  float*A=malloc(n*n*4),*B=malloc(n*n*4),*C=malloc(n*n*4),*R=malloc(n*n*4);
  for(int64_t i=0;i<n*n;i++){A[i]=rand()/(float)RAND_MAX-.5f;B[i]=rand()/(float)RAND_MAX-.5f;}
  cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,R,n); solution(A,B,C,n);
  double err=0; for(int64_t i=0;i<n*n;i++) err=fmax(err,fabs(C[i]-R[i]));
  /* OpenBLAS's threads spin for about 2^28 cycles after a call: a pause after each of its calls, so they never
     share a core with the candidate's threads. */
  double tc[21],tb[21]; usleep(200000); for(int r=0;r<k;r++){double t0=now(); solution(A,B,C,n); tc[r]=now()-t0;
    t0=now(); cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,R,n); tb[r]=now()-t0;
    usleep(200000);}
  printf("%f %f %g\\n",best(tc,k),best(tb,k),err); return err>1e-2; }`,
    figure: (ms) => `${((2 * 1024 ** 3) / (ms * 1e6)).toFixed(0)} GFLOP/s`,
  },
  '19_ReLU': {
    n: 16777216,
    libs: [],
    main: `${COMMON}#if defined(__x86_64__)
#include <immintrin.h>
#endif
void solution(const float* x, float* y, int64_t n);
int main(int argc,char**argv){ int64_t n=16777216; int k=argc>1?atoi(argv[1]):21; if(k<1||k>21)k=21; float*x=aligned_alloc(64,n*4),*y=aligned_alloc(64,n*4),*a=aligned_alloc(64,n*4),*b=aligned_alloc(64,n*4),*c=aligned_alloc(64,n*4);
  #pragma omp parallel for schedule(static)
  for(int64_t i=0;i<n;i++){x[i]=(float)(i%7)-3.0f;a[i]=0;b[i]=1;c[i]=2;y[i]=0;}
  double tc[21],tb[21],tp[21]; for(int r=0;r<k;r++){double t0=now(); solution(x,y,n); tc[r]=now()-t0;
    t0=now();
    #pragma omp parallel for schedule(static)
    for(int64_t i=0;i<n;i+=16){
#if defined(__AVX512F__)
      _mm512_stream_ps(a+i,_mm512_add_ps(_mm512_load_ps(b+i),_mm512_mul_ps(_mm512_set1_ps(1.5f),_mm512_load_ps(c+i))));
#elif defined(__AVX__)
      for(int k=0;k<16;k+=8)_mm256_stream_ps(a+i+k,_mm256_add_ps(_mm256_load_ps(b+i+k),_mm256_mul_ps(_mm256_set1_ps(1.5f),_mm256_load_ps(c+i+k))));
#else
      for(int k=0;k<16;k++)a[i+k]=b[i+k]+1.5f*c[i+k];
#endif
    }
    tb[r]=now()-t0;
    t0=now();
    #pragma omp parallel for simd schedule(static)
    for(int64_t i=0;i<n;i++) a[i]=b[i]+1.5f*c[i];
    tp[r]=now()-t0;}
  double err=0; for(int64_t i=0;i<n;i++) err=fmax(err,fabs(y[i]-(x[i]>0?x[i]:0)));
  /* The triads as the time it would take to move ReLU's 8n bytes at their bandwidth (12n bytes each): non-temporal, then plain. */
  printf("%f %f %g %f\\n",best(tc,k),best(tb,k)*8.0/12.0,err,best(tp,k)*8.0/12.0); return err>0; }`,
    figure: (ms) => `${((8 * 16777216) / (ms * 1e6)).toFixed(1)} GB/s`,
  },
};

const tuner = createAgent({ provider: 'tuner' }, {});
const cpu = cpuInfo();
const device = {
  id: 'cpu',
  kind: 'cpu',
  name: 'cpu',
  cores: cpu.physical_cores,
  peaks: { bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' },
  available: true,
  runners: 1,
  languages: ['c'],
  cpu,
};
const m = machine();
console.log(
  `machine: ${m.model}, ${m.cores} cpus, ISA ${device.cpu.vector_isa} (${device.cpu.isa.join(' ')}), ${device.cpu.vector_registers} vector registers of ${device.cpu.vector_bits} bits, caches ${m.caches}; load ${m.load}`,
);
const dir = mkdtempSync(join(tmpdir(), 'kf-bench-tuner-'));

/** The OPENBLAS_CORETYPE values this CPU can run ('' = OpenBLAS's own detection), from the ISA the runner reads. */
function coretypes() {
  const isa = new Set(device.cpu.isa);
  const out = [''];
  if (isa.has('avx512f')) out.push('SkylakeX', 'Cooperlake', 'SapphireRapids');
  if (isa.has('avx2') && isa.has('fma')) out.push('Haswell');
  if (m.vendor === 'AuthenticAMD' && isa.has('avx2')) out.push('Zen');
  return out;
}

const SGEMM = `${COMMON}#include <cblas.h>
#include <unistd.h>
char* openblas_get_corename(void);
void openblas_set_num_threads(int);
static double cpu(void){struct timespec t;clock_gettime(CLOCK_THREAD_CPUTIME_ID,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
int main(int argc,char**argv){ int64_t n=1024; int k=argc>1?atoi(argv[1]):21; if(k<1||k>21)k=21;
  float*A=malloc(n*n*4),*B=malloc(n*n*4),*C=malloc(n*n*4);
  for(int64_t i=0;i<n*n;i++){A[i]=rand()/(float)RAND_MAX-.5f;B[i]=rand()/(float)RAND_MAX-.5f;}
  cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,C,n);
  double t[21],t1[21]; for(int r=0;r<k;r++){usleep(200000); double t0=now();
    cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,C,n); t[r]=now()-t0;}
  /* One thread, in its cpu time: the kernel itself, which other processes' turns on the cores hardly move. */
  openblas_set_num_threads(1); for(int r=0;r<k;r++){double t0=cpu();
    cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,C,n); t1[r]=cpu()-t0;}
  printf("%s %f %f\\n",openblas_get_corename(),best(t,k),best(t1,k)); return 0; }`;

const envFor = (coretype) => {
  const env = { ...process.env, OMP_WAIT_POLICY: 'passive' };
  if (coretype) env.OPENBLAS_CORETYPE = coretype;
  else delete env.OPENBLAS_CORETYPE;
  return env;
};

/** sgemm at n = 1024 under each coretype, a child process each (OpenBLAS reads it once, at load): the kernels. */
function openblasKernels() {
  writeFileSync(join(dir, 'sgemm.c'), SGEMM);
  execFileSync('gcc', ['-O2', `-I${CBLAS}`, join(dir, 'sgemm.c'), '-o', join(dir, 'sgemm'), '-lopenblas', '-lm']);
  const runs = coretypes().map((coretype) => {
    const [core, ms, ms1] = execFileSync(join(dir, 'sgemm'), [String(KERNEL_REPS)], {
      encoding: 'utf8',
      env: envFor(coretype),
    })
      .trim()
      .split(' ');
    console.log(
      `OpenBLAS OPENBLAS_CORETYPE=${coretype || '(unset)'}: kernel ${core}, best ${Number(ms).toFixed(3)} ms (${gflops(1024, Number(ms)).toFixed(0)} GFLOP/s); one thread, cpu time ${Number(ms1).toFixed(3)} ms (${gflops(1024, Number(ms1)).toFixed(0)} GFLOP/s); load ${loadavg()[0].toFixed(2)}`,
    );
    return { coretype, core, ms: Number(ms), ms1: Number(ms1) };
  });
  // The best kernel by its one-thread cpu time (the wall-clock times of a shared machine rank kernels by luck).
  const fastest = runs.reduce((a, b) => (b.ms1 < a.ms1 ? b : a));
  // Named by the coretype that forces that kernel, where one does (the detected default may be the same kernel).
  const best = runs.find((r) => r.core === fastest.core && r.coretype) ?? fastest;
  const detected = runs.find((r) => r.coretype === '') ?? fastest;
  return { best, detected };
}

try {
  const blas = openblasKernels();
  console.log(
    `OpenBLAS default kernel: ${blas.detected.core}; best kernel: ${blas.best.core} (OPENBLAS_CORETYPE=${blas.best.coretype || '(unset)'}); the matmul attempts are timed beside the best`,
  );
  const peakBefore = measureCpuPeaks(join(dir, 'peaks')).fp32_gflops;
  for (const [name, h] of Object.entries(HARNESS)) {
    writeFileSync(join(dir, 'main.c'), h.main);
    // The catalogue's problem (signature, cost) with the size this harness times as its benchmark case, so the
    // tuner fits its space to the same working set it is measured on.
    const problem = {
      ...JSON.parse(readFileSync(join(defaultProblemsDir(), name, 'problem.json'), 'utf8')),
      cases: { test: [], benchmark: [{ name: 'bench', sizes: { n: h.n } }] },
      custom: false,
    };
    const isGemm = h.libs.includes('-lopenblas');
    const build = (source) => {
      writeFileSync(join(dir, 'k.c'), source);
      execFileSync('gcc', [
        '-O3',
        '-march=native',
        '-fopenmp',
        `-I${CBLAS}`,
        join(dir, 'k.c'),
        join(dir, 'main.c'),
        '-o',
        join(dir, 'k'),
        ...h.libs,
        '-lm',
      ]);
    };
    const run = (coretype) =>
      execFileSync(join(dir, 'k'), [String(KERNEL_REPS)], { encoding: 'utf8', env: envFor(coretype) })
        .trim()
        .split(' ')
        .map(Number);
    const history = [];
    let best = null;
    for (let i = 1; i <= ATTEMPTS; i++) {
      const ctx = {
        problem,
        device,
        language: 'c',
        history,
        best,
        instructions: [],
        currentInstruction: null,
        attemptNumber: i,
        signal: AbortSignal.timeout(60_000),
      };
      const out = await tuner.generate(ctx);
      let state;
      try {
        build(out.source);
        const [mine, base, , plain] = run(isGemm ? blas.best.coretype : '');
        // The tuner reads speedup as "over the problem's reference"; the anchor here is a library, so none is given.
        state = {
          verdict: 'accepted',
          benchmarking_result: { optimized_time: mine, baseline_time: base, speedup: null, ratio: base / mine },
        };
        console.log(
          `${name} #${i} ${out.agent_meta.point_key}: ${mine.toFixed(3)} ms (${h.figure(mine)}), baseline ${base.toFixed(3)} ms (${h.figure(base)}), ratio ${(base / mine).toFixed(2)}` +
            (plain ? `; plain triad ${h.figure(plain)}, ratio ${(plain / mine).toFixed(2)}` : '') +
            `; load ${loadavg()[0].toFixed(2)}`,
        );
      } catch (_e) {
        state = { verdict: 'incorrect', benchmarking_result: null };
        console.log(`${name} #${i} ${out.agent_meta.point_key}: failed`);
      }
      const view = {
        attempt_number: i,
        status: 'completed',
        source: out.source,
        explanation: out.explanation,
        evaluation_state: state,
        agent_meta: out.agent_meta,
      };
      history.push(view);
      if (
        state.benchmarking_result &&
        (!best || state.benchmarking_result.optimized_time < best.evaluation_state.benchmarking_result.optimized_time)
      )
        best = view;
    }
    const b = best?.evaluation_state.benchmarking_result;
    if (b)
      console.log(
        `BEST ${name}: attempt ${best.attempt_number} ${b.optimized_time.toFixed(3)} ms = ${h.figure(b.optimized_time)}; baseline ${h.figure(b.baseline_time)}${isGemm ? ` (OpenBLAS ${blas.best.core})` : ''}; ratio ${b.ratio.toFixed(2)}; ${best.agent_meta.point_key}`,
      );
    if (b && isGemm) {
      // The best attempt once more, beside the kernel OpenBLAS picks by itself; and as a share of the measured peak.
      build(best.source);
      const [mine, base] = run('');
      // And on one core in thread cpu time (no pauses: nothing spins), beside the best kernel on one thread: a
      // figure other processes on a shared machine move far less than wall-clock times (they take turns on the
      // cores, not cycles from a running thread).
      writeFileSync(
        join(dir, 'main.c'),
        h.main.replaceAll('CLOCK_MONOTONIC', 'CLOCK_THREAD_CPUTIME_ID').replaceAll('usleep(200000);', ''),
      );
      build(best.source);
      const [mine1, base1] = execFileSync(join(dir, 'k'), [String(KERNEL_REPS)], {
        encoding: 'utf8',
        env: { ...envFor(blas.best.coretype), OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1' },
      })
        .trim()
        .split(' ')
        .map(Number);
      const peak = Math.max(peakBefore, measureCpuPeaks(join(dir, 'peaks'), true).fp32_gflops);
      const g = gflops(1024, Math.min(mine, b.optimized_time));
      console.log(
        `BEST ${name} beside OpenBLAS's default kernel (${blas.detected.core}): ${mine.toFixed(3)} ms = ${h.figure(mine)}; default ${h.figure(base)}; ratio ${(base / mine).toFixed(2)}`,
      );
      console.log(
        `BEST ${name}: ${g.toFixed(0)} GFLOP/s (the better of its two timings) = ${peak > 0 ? ((100 * g) / peak).toFixed(0) : '?'}% of the runner's measured fp32 peak ${peak.toFixed(0)} GFLOP/s; load ${loadavg()[0].toFixed(2)}`,
      );
      const share = peak / device.cpu.physical_cores;
      console.log(
        `BEST ${name} on one core, thread cpu time: ${mine1.toFixed(3)} ms = ${h.figure(mine1)} (${share > 0 ? ((100 * gflops(1024, mine1)) / share).toFixed(0) : '?'}% of one core's share of that peak); OpenBLAS ${blas.best.core} on one thread ${h.figure(base1)}; ratio ${(base1 / mine1).toFixed(2)}`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
