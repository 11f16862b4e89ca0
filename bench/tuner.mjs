// The tuner's search on this machine, whatever its ISA, measured against the libraries it should be compared with:
// 1_Square_matrix_multiplication_ (n = 1024) vs OpenBLAS sgemm, and 19_ReLU (n = 16M) vs a STREAM-like triad
// (non-temporal and plain stores). The tuner sees this machine's ISA, registers and caches as the runner reports
// them. Each attempt is compiled with the runner's flags and timed interleaved with the anchors in one process
// (best of 21 calls each, caches warm).
// Run: node --import tsx bench/tuner.mjs [attempts]     (needs gcc and libopenblas-dev)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuInfo } from '../packages/runner/src/devices/cpu.ts';
import { createAgent } from '../packages/server/src/agents/index.ts';
import { cblasInclude, machine } from './anchors.mjs';

const ATTEMPTS = Number(process.argv[2] ?? 12);
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
int main(void){ int64_t n=1024; float*A=malloc(n*n*4),*B=malloc(n*n*4),*C=malloc(n*n*4),*R=malloc(n*n*4);
  for(int64_t i=0;i<n*n;i++){A[i]=rand()/(float)RAND_MAX-.5f;B[i]=rand()/(float)RAND_MAX-.5f;}
  cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,R,n); solution(A,B,C,n);
  double err=0; for(int64_t i=0;i<n*n;i++) err=fmax(err,fabs(C[i]-R[i]));
  /* OpenBLAS's threads spin for about 2^28 cycles after a call: a pause after each of its calls, so they never
     share a core with the candidate's threads. */
  double tc[21],tb[21]; usleep(200000); for(int r=0;r<21;r++){double t0=now(); solution(A,B,C,n); tc[r]=now()-t0;
    t0=now(); cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,R,n); tb[r]=now()-t0;
    usleep(200000);}
  printf("%f %f %g\\n",best(tc,21),best(tb,21),err); return err>1e-2; }`,
    figure: (ms) => `${((2 * 1024 ** 3) / (ms * 1e6)).toFixed(0)} GFLOP/s`,
  },
  '19_ReLU': {
    n: 16777216,
    libs: [],
    main: `${COMMON}#if defined(__x86_64__)
#include <immintrin.h>
#endif
void solution(const float* x, float* y, int64_t n);
int main(void){ int64_t n=16777216; float*x=aligned_alloc(64,n*4),*y=aligned_alloc(64,n*4),*a=aligned_alloc(64,n*4),*b=aligned_alloc(64,n*4),*c=aligned_alloc(64,n*4);
  #pragma omp parallel for schedule(static)
  for(int64_t i=0;i<n;i++){x[i]=(float)(i%7)-3.0f;a[i]=0;b[i]=1;c[i]=2;y[i]=0;}
  double tc[21],tb[21],tp[21]; for(int r=0;r<21;r++){double t0=now(); solution(x,y,n); tc[r]=now()-t0;
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
  printf("%f %f %g %f\\n",best(tc,21),best(tb,21)*8.0/12.0,err,best(tp,21)*8.0/12.0); return err>0; }`,
    figure: (ms) => `${((8 * 16777216) / (ms * 1e6)).toFixed(1)} GB/s`,
  },
};

const tuner = createAgent({ provider: 'tuner' }, {});
const device = {
  id: 'cpu',
  kind: 'cpu',
  name: 'cpu',
  cores: 2,
  peaks: { bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' },
  available: true,
  runners: 1,
  languages: ['c'],
  cpu: cpuInfo(),
};
const m = machine();
console.log(
  `machine: ${m.model}, ${m.cores} cpus, ISA ${device.cpu.vector_isa} (${device.cpu.isa.join(' ')}), ${device.cpu.vector_registers} vector registers of ${device.cpu.vector_bits} bits, caches ${m.caches}; load ${m.load}`,
);
const dir = mkdtempSync(join(tmpdir(), 'kf-bench-tuner-'));
try {
  for (const [name, h] of Object.entries(HARNESS)) {
    writeFileSync(join(dir, 'main.c'), h.main);
    const problem = {
      name,
      title: name,
      level: 1,
      description: '',
      signature: [],
      prototype: '',
      cases: { test: [], benchmark: [] },
      distributions: [],
      tolerance: { atol: 1e-4, rtol: 1e-4 },
      cost: { flops: '0', bytes: '0' },
      backends: ['cpu'],
      languages: ['c'],
      custom: false,
    };
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
      writeFileSync(join(dir, 'k.c'), out.source);
      let state;
      try {
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
        const [mine, base, , plain] = execFileSync(join(dir, 'k'), {
          encoding: 'utf8',
          env: { ...process.env, OMP_WAIT_POLICY: 'passive' },
        })
          .trim()
          .split(' ')
          .map(Number);
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
        `BEST ${name}: attempt ${best.attempt_number} ${b.optimized_time.toFixed(3)} ms = ${h.figure(b.optimized_time)}; baseline ${h.figure(b.baseline_time)}; ratio ${b.ratio.toFixed(2)}; ${best.agent_meta.point_key}`,
      );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
