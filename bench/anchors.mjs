// The anchors the tuner is compared with, measured on this machine in the same run as the figure they anchor:
// OpenBLAS sgemm at n = 1024 and a STREAM-like triad (non-temporal and plain stores), plus what this machine is
// (model, ISA, cores, caches, load). Used by bench/tuner.mjs and bench/tuner-session.mjs.
// Needs gcc and libopenblas-dev (cblas.h); without OpenBLAS the sgemm anchor is reported as missing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const C = String.raw`
#define _GNU_SOURCE
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#ifdef HAVE_CBLAS
#include <cblas.h>
#endif
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static int cmp(const void*a,const void*b){double d=*(const double*)a-*(const double*)b;return (d>0)-(d<0);}
static double med(double*t,int k){qsort(t,k,sizeof*t,cmp);return t[k/2];}
static double mn(double*t,int k){double m=t[0];for(int i=1;i<k;i++)if(t[i]<m)m=t[i];return m;}
static volatile float sink;
/* Evicts the caches the way the runner's harness does before a timed call of a small case: write and read 2x LLC. */
static void flush(float*f,size_t n){for(size_t i=0;i<n;i++)f[i]=(float)i;float s=0;for(size_t i=0;i<n;i++)s+=f[i];sink+=s;}
static void triad_nt(float*restrict a,const float*restrict b,const float*restrict c,int64_t n){
#pragma omp parallel for schedule(static)
  for(int64_t i=0;i<n;i+=16){
#if defined(__AVX512F__)
    _mm512_stream_ps(a+i,_mm512_add_ps(_mm512_load_ps(b+i),_mm512_mul_ps(_mm512_set1_ps(1.5f),_mm512_load_ps(c+i))));
#elif defined(__AVX__)
    for(int k=0;k<16;k+=8)_mm256_stream_ps(a+i+k,_mm256_add_ps(_mm256_load_ps(b+i+k),_mm256_mul_ps(_mm256_set1_ps(1.5f),_mm256_load_ps(c+i+k))));
#elif defined(__SSE__)
    for(int k=0;k<16;k+=4)_mm_stream_ps(a+i+k,_mm_add_ps(_mm_load_ps(b+i+k),_mm_mul_ps(_mm_set1_ps(1.5f),_mm_load_ps(c+i+k))));
#else
    for(int k=0;k<16;k++)a[i+k]=b[i+k]+1.5f*c[i+k];
#endif
  }
}
static void triad_plain(float*restrict a,const float*restrict b,const float*restrict c,int64_t n){
#pragma omp parallel for simd schedule(static)
  for(int64_t i=0;i<n;i++)a[i]=b[i]+1.5f*c[i];
}
int main(int argc,char**argv){
  int64_t n=atoll(argv[1]), tn=atoll(argv[2]); int reps=atoi(argv[3]); size_t llc=strtoull(argv[4],0,10);
  size_t fl=2*llc/4; float*F=malloc(fl*4+64);
#ifdef HAVE_CBLAS
  float*A=aligned_alloc(64,n*n*4),*B=aligned_alloc(64,n*n*4),*Cm=aligned_alloc(64,n*n*4);
  for(int64_t i=0;i<n*n;i++){A[i]=rand()/(float)RAND_MAX-.5f;B[i]=rand()/(float)RAND_MAX-.5f;}
  double warm[64],cold[64];
  for(int r=0;r<3;r++)cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,Cm,n);
  for(int r=0;r<reps;r++){double t0=now();cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,Cm,n);warm[r]=now()-t0;
    flush(F,fl);t0=now();cblas_sgemm(CblasRowMajor,CblasNoTrans,CblasNoTrans,n,n,n,1,A,n,B,n,0,Cm,n);cold[r]=now()-t0;}
  printf("sgemm_best_ms=%f\nsgemm_median_ms=%f\nsgemm_cold_median_ms=%f\n",mn(warm,reps),med(warm,reps),med(cold,reps));
#endif
  float*a=aligned_alloc(64,tn*4),*b=aligned_alloc(64,tn*4),*c=aligned_alloc(64,tn*4);
#pragma omp parallel for schedule(static)
  for(int64_t i=0;i<tn;i++){a[i]=0;b[i]=1;c[i]=2;}
  double tnt[64],tpl[64];
  for(int r=0;r<reps;r++){double t0=now();triad_nt(a,b,c,tn);tnt[r]=now()-t0;t0=now();triad_plain(a,b,c,tn);tpl[r]=now()-t0;}
  double by=12.0*tn/1e6;
  printf("triad_nt_best_gbps=%f\ntriad_nt_median_gbps=%f\ntriad_best_gbps=%f\ntriad_median_gbps=%f\n",by/mn(tnt,reps),by/med(tnt,reps),by/mn(tpl,reps),by/med(tpl,reps));
  return 0;
}`;

/** The folder holding OpenBLAS's cblas.h for this machine's compiler, or null. */
export function cblasInclude() {
  let triplet = '';
  try {
    triplet = execFileSync('gcc', ['-print-multiarch'], { encoding: 'utf8' }).trim();
  } catch {}
  const dirs = [
    `/usr/include/${triplet}/openblas-pthread`,
    `/usr/include/${triplet}/openblas-openmp`,
    `/usr/include/${triplet}`,
    '/usr/include/openblas',
    '/usr/include',
  ];
  return dirs.find((d) => existsSync(join(d, 'cblas.h'))) ?? null;
}

function read(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Model, ISA flags, cores and caches, read the way the runner reads them. */
export function machine() {
  const info = read('/proc/cpuinfo');
  const field = (k) => new RegExp(`^${k}\\s*:\\s*(.*)$`, 'm').exec(info)?.[1]?.trim() ?? '';
  const flags = new Set((field('flags') || field('Features')).split(/\s+/));
  const isa = [
    'avx',
    'avx2',
    'fma',
    'avx512f',
    'avx512bw',
    'avx512vl',
    'avx512_vnni',
    'avx512_bf16',
    'amx_tile',
    'asimd',
    'sve',
  ].filter((f) => flags.has(f));
  const cache = (i) => {
    const d = `/sys/devices/system/cpu/cpu0/cache/index${i}`;
    return existsSync(d)
      ? `L${read(`${d}/level`).trim()}${read(`${d}/type`).trim()[0]} ${read(`${d}/size`).trim()}`
      : null;
  };
  const caches = [0, 1, 2, 3, 4].map(cache).filter(Boolean);
  const llcText = read('/sys/devices/system/cpu/cpu0/cache/index3/size').trim() || '32M';
  const llc = Number.parseInt(llcText, 10) * (llcText.endsWith('M') ? 2 ** 20 : 1024);
  return {
    model: field('model name') || arch(),
    vendor: field('vendor_id'),
    isa: isa.join(' ') || 'baseline',
    vectorIsa: flags.has('avx512f') ? 'avx512' : flags.has('avx2') ? 'avx2' : flags.has('avx') ? 'avx' : arch(),
    cores: availableParallelism(),
    caches: caches.join(', '),
    llc,
    load: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
  };
}

/** sgemm (n x n, OpenBLAS) and triad (tn elements per array) anchors: best and median of `reps` runs each. */
export function measureAnchors({ n = 1024, tn = 8 * 2 ** 20, reps = 15 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kf-anchors-'));
  try {
    writeFileSync(join(dir, 'a.c'), C);
    const inc = cblasInclude();
    const args = ['-O3', '-march=native', '-fopenmp', join(dir, 'a.c'), '-o', join(dir, 'a'), '-lm'];
    if (inc) args.push(`-I${inc}`, '-DHAVE_CBLAS', '-lopenblas');
    execFileSync('gcc', args, { stdio: 'pipe' });
    const out = execFileSync(join(dir, 'a'), [String(n), String(tn), String(reps), String(machine().llc)], {
      encoding: 'utf8',
      env: { ...process.env, OMP_WAIT_POLICY: 'passive' },
    });
    const r = Object.fromEntries(
      out
        .trim()
        .split('\n')
        .map((l) => l.split('='))
        .map(([k, v]) => [k, Number(v)]),
    );
    return { ...r, n, tn, reps, openblas: Boolean(inc) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const gflops = (n, ms) => (2 * n ** 3) / (ms * 1e6);
