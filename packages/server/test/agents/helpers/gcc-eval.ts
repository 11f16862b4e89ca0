// A small real evaluation for tests: compile the candidate with the runner's flags, check it, time it.
// (Stands in for the runner package's `evaluate` until that lands; it uses the real compiler, no stubs.)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EvaluationState } from '@kernelforge/sdk';

const run = promisify(execFile);
export const FLAGS = ['-O3', '-march=native', '-fopenmp'];

/** Harness mains: fill inputs, check against a plain loop, print the median time (ms) of several calls. */
const HARNESS: Record<string, string> = {
  '19_ReLU': `
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
void solution(const float* x, float* y, int64_t n);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static int cmp(const void*a,const void*b){double d=*(const double*)a-*(const double*)b;return (d>0)-(d<0);}
int main(int argc,char**argv){
  int64_t n=atoll(argv[1]); int reps=atoi(argv[2]);
  float*x=malloc(n*4+64),*y=malloc(n*4+64); x+=1; y+=1; /* deliberately unaligned */
  srand(7); for(int64_t i=0;i<n;i++) x[i]=rand()/(float)RAND_MAX-0.5f;
  for(int64_t m=1;m<n;m=m*3+5){ for(int64_t i=0;i<m;i++) y[i]=-1; solution(x,y,m);
    for(int64_t i=0;i<m;i++){float e=x[i]>0?x[i]:0; if(y[i]!=e){printf("WRONG n=%ld at %ld\\n",(long)m,(long)i);return 3;}} }
  double t[64]; for(int r=0;r<reps;r++){double t0=now(); solution(x,y,n); t[r]=now()-t0;}
  qsort(t,reps,sizeof t[0],cmp); printf("%.6f\\n",t[reps/2]); return 0; }`,
  '1_Square_matrix_multiplication_': `
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <math.h>
#include <time.h>
void solution(const float* A, const float* B, float* C, int64_t n);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec*1e-6;}
static int cmp(const void*a,const void*b){double d=*(const double*)a-*(const double*)b;return (d>0)-(d<0);}
static int check(int64_t n){
  float*A=malloc(n*n*4),*B=malloc(n*n*4),*C=malloc(n*n*4);
  for(int64_t i=0;i<n*n;i++){A[i]=rand()/(float)RAND_MAX-0.5f;B[i]=rand()/(float)RAND_MAX-0.5f;C[i]=NAN;}
  solution(A,B,C,n);
  for(int64_t i=0;i<n;i++)for(int64_t j=0;j<n;j++){double s=0;for(int64_t k=0;k<n;k++)s+=(double)A[i*n+k]*B[k*n+j];
    if(!(fabs(C[i*n+j]-s)<=1e-4+1e-4*fabs(s)*n)){printf("WRONG n=%ld at %ld,%ld\\n",(long)n,(long)i,(long)j);return 0;}}
  free(A);free(B);free(C);return 1;}
int main(int argc,char**argv){
  int64_t n=atoll(argv[1]); int reps=atoi(argv[2]); srand(7);
  if(!check(1)||!check(17)||!check(67)||!check(131)) return 3;
  float*A=malloc(n*n*4),*B=malloc(n*n*4),*C=malloc(n*n*4);
  for(int64_t i=0;i<n*n;i++){A[i]=rand()/(float)RAND_MAX-0.5f;B[i]=rand()/(float)RAND_MAX-0.5f;}
  double t[64]; solution(A,B,C,n); for(int r=0;r<reps;r++){double t0=now(); solution(A,B,C,n); t[r]=now()-t0;}
  qsort(t,reps,sizeof t[0],cmp); printf("%.6f\\n",t[reps/2]); return 0; }`,
};

export async function compileOnly(source: string, language: 'c' | 'cpp' = 'c'): Promise<{ ok: boolean; log: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'kf-agents-'));
  try {
    const file = join(dir, language === 'cpp' ? 'k.cpp' : 'k.c');
    writeFileSync(file, source);
    await run(language === 'cpp' ? 'g++' : 'gcc', [...FLAGS, '-c', file, '-o', join(dir, 'k.o')], { timeout: 120_000 });
    return { ok: true, log: '' };
  } catch (e) {
    return { ok: false, log: String((e as { stderr?: string }).stderr ?? e) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Compiles and runs `source` on `problem` at size n; an EvaluationState like the runner's (only the fields agents read). */
export async function evaluateWithGcc(problem: string, source: string, n: number, reps = 9): Promise<EvaluationState> {
  const dir = mkdtempSync(join(tmpdir(), 'kf-agents-'));
  const base = { mode: 'benchmark' as const, runner_seconds: 0, evaluated_at: new Date().toISOString() };
  try {
    writeFileSync(join(dir, 'k.c'), source);
    writeFileSync(join(dir, 'main.c'), HARNESS[problem] ?? '');
    try {
      await run('gcc', [...FLAGS, join(dir, 'k.c'), join(dir, 'main.c'), '-o', join(dir, 'k'), '-lm'], {
        timeout: 120_000,
      });
    } catch (e) {
      const log = String((e as { stderr?: string }).stderr ?? e);
      return {
        ...base,
        verdict: 'compile_error',
        message: 'compile error',
        compile: { ok: false, compiler: 'gcc', flags: FLAGS, log, duration_ms: 0 },
        correctness: null,
      };
    }
    const compile = { ok: true, compiler: 'gcc', flags: FLAGS, log: '', duration_ms: 0 };
    try {
      const { stdout } = await run(join(dir, 'k'), [String(n), String(reps)], { timeout: 120_000 });
      const ms = Number(stdout.trim());
      const bench = {
        optimized_time: ms,
        baseline_time: ms,
        speedup: 1,
        gbps: 0,
        gflops: 0,
        fraction_of_peak: 0,
        cases: [],
        flagged_for_review: false,
        review_reasons: [],
      };
      return {
        ...base,
        verdict: 'accepted',
        message: `accepted: ${ms} ms`,
        compile,
        correctness: { passed: true, cases: [] },
        benchmarking_result: bench,
      };
    } catch (e) {
      const out = String((e as { stdout?: string }).stdout ?? '');
      return {
        ...base,
        verdict: 'incorrect',
        message: out.trim() || 'failed',
        compile,
        correctness: { passed: false, cases: [] },
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
