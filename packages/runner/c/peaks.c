/* Measures the cpu's peaks for roofline figures, with the code path of the ISA this binary was compiled for
   (-march=native): AVX-512, AVX2+FMA, AVX, SSE on x86-64; NEON (vector extensions) elsewhere.

   * clock: a chain of dependent integer adds (one per cycle on every core design), on every thread at once;
   * fp32 FMA throughput: independent FMA chains in vector registers (inline assembly on x86-64, so the compiler
     cannot spill them), on all threads and on one thread; the larger of all-threads and one-thread x cores;
   * memory bandwidth: a triad a[i] = b[i] + s*c[i] with non-temporal stores (12 bytes per element: no
     write-allocate), a read-only sum, and a plain triad for reference, over arrays far past the last-level cache.

   Every figure is the best of several short runs: a peak is a ceiling, and on a busy machine a long run measures
   the other processes. Usage: peaks [bytes per array] [physical cores]. Prints key=value lines. */
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static volatile float sink;

/* ---- clock: 4 dependent adds per iteration, one cycle each ----
   Register-register adds, not adds of an immediate: Intel's Golden Cove and later cores fold chains of small
   immediate adds in the renamer, so an `add $1` chain ran 3 per cycle there and a 2.x GHz Xeon (family 6 model 207)
   read 11.97 GHz. An add of a register the renamer cannot know keeps its one cycle of latency on every core. */
static void add_chain(long iters) {
  long x = 0, one = 1;
  __asm__ volatile("" : "+r"(one)); /* opaque to the compiler: it cannot fold the adds either */
  for (long i = 0; i < iters; i++) {
#if defined(__x86_64__)
    __asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0" : "+r"(x) : "r"(one));
#elif defined(__aarch64__)
    __asm__ volatile("add %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1\n\tadd %0, %0, %1" : "+r"(x) : "r"(one));
#else
    __asm__ volatile("" : "+r"(x));
    x += 4;
#endif
  }
  sink += (float)x;
}

/* ---- FMA chains ---- */
#if defined(__x86_64__) && defined(__AVX512F__)
#define PATH "avx512"
#define LANES 16
#define CHAINS 24
static void fma_chains(long iters) {
  __asm__ volatile(
      "vbroadcastss %1, %%zmm30\n\tvbroadcastss %2, %%zmm31\n\t"
      "vxorps %%zmm0,%%zmm0,%%zmm0\n\tvmovaps %%zmm0,%%zmm1\n\tvmovaps %%zmm0,%%zmm2\n\tvmovaps %%zmm0,%%zmm3\n\t"
      "vmovaps %%zmm0,%%zmm4\n\tvmovaps %%zmm0,%%zmm5\n\tvmovaps %%zmm0,%%zmm6\n\tvmovaps %%zmm0,%%zmm7\n\t"
      "vmovaps %%zmm0,%%zmm8\n\tvmovaps %%zmm0,%%zmm9\n\tvmovaps %%zmm0,%%zmm10\n\tvmovaps %%zmm0,%%zmm11\n\t"
      "vmovaps %%zmm0,%%zmm12\n\tvmovaps %%zmm0,%%zmm13\n\tvmovaps %%zmm0,%%zmm14\n\tvmovaps %%zmm0,%%zmm15\n\t"
      "vmovaps %%zmm0,%%zmm16\n\tvmovaps %%zmm0,%%zmm17\n\tvmovaps %%zmm0,%%zmm18\n\tvmovaps %%zmm0,%%zmm19\n\t"
      "vmovaps %%zmm0,%%zmm20\n\tvmovaps %%zmm0,%%zmm21\n\tvmovaps %%zmm0,%%zmm22\n\tvmovaps %%zmm0,%%zmm23\n\t"
      "mov %0, %%rcx\n"
      "1:\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm0\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm1\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm2\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm3\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm4\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm5\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm6\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm7\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm8\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm9\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm10\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm11\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm12\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm13\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm14\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm15\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm16\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm17\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm18\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm19\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm20\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm21\n\t"
      "vfmadd231ps %%zmm30,%%zmm31,%%zmm22\n\tvfmadd231ps %%zmm30,%%zmm31,%%zmm23\n\t"
      "dec %%rcx\n\tjnz 1b\n\t"
      "vzeroupper\n"
      :
      : "r"(iters), "m"((float){0.999999f}), "m"((float){1e-7f})
      : "rcx", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",
        "xmm23", "xmm30", "xmm31");
}
#elif defined(__x86_64__) && defined(__AVX__)
#ifdef __FMA__
#define PATH "avx2-fma"
#define OP2(a, b, c) "vfmadd231ps %%ymm14,%%ymm15,%%ymm" #a "\n\tvfmadd231ps %%ymm14,%%ymm15,%%ymm" #b "\n\t"
#define FLOPS_PER_LANE 2
#else
#define PATH "avx"
/* No FMA: independent multiply and add chains, one flop per lane each. */
#define OP2(a, b, c) "vmulps %%ymm14,%%ymm" #a ",%%ymm" #a "\n\tvaddps %%ymm15,%%ymm" #b ",%%ymm" #b "\n\t"
#define FLOPS_PER_LANE 1
#endif
#define LANES 8
#define CHAINS 12
static void fma_chains(long iters) {
  __asm__ volatile(
      "vbroadcastss %1, %%ymm14\n\tvbroadcastss %2, %%ymm15\n\t"
      "vxorps %%ymm0,%%ymm0,%%ymm0\n\tvmovaps %%ymm0,%%ymm1\n\tvmovaps %%ymm0,%%ymm2\n\tvmovaps %%ymm0,%%ymm3\n\t"
      "vmovaps %%ymm0,%%ymm4\n\tvmovaps %%ymm0,%%ymm5\n\tvmovaps %%ymm0,%%ymm6\n\tvmovaps %%ymm0,%%ymm7\n\t"
      "vmovaps %%ymm0,%%ymm8\n\tvmovaps %%ymm0,%%ymm9\n\tvmovaps %%ymm0,%%ymm10\n\tvmovaps %%ymm0,%%ymm11\n\t"
      "mov %0, %%rcx\n"
      "1:\n\t" OP2(0, 1, x) OP2(2, 3, x) OP2(4, 5, x) OP2(6, 7, x) OP2(8, 9, x) OP2(10, 11, x)
      "dec %%rcx\n\tjnz 1b\n\t"
      "vzeroupper\n"
      :
      : "r"(iters), "m"((float){0.999999f}), "m"((float){1e-7f})
      : "rcx", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm14", "xmm15");
}
#elif defined(__x86_64__)
#define PATH "sse"
#define LANES 4
#define CHAINS 12
#define FLOPS_PER_LANE 1
static void fma_chains(long iters) {
  __asm__ volatile(
      "movss %1, %%xmm14\n\tshufps $0, %%xmm14, %%xmm14\n\tmovss %2, %%xmm15\n\tshufps $0, %%xmm15, %%xmm15\n\t"
      "xorps %%xmm0,%%xmm0\n\tmovaps %%xmm0,%%xmm1\n\tmovaps %%xmm0,%%xmm2\n\tmovaps %%xmm0,%%xmm3\n\t"
      "movaps %%xmm0,%%xmm4\n\tmovaps %%xmm0,%%xmm5\n\tmovaps %%xmm0,%%xmm6\n\tmovaps %%xmm0,%%xmm7\n\t"
      "movaps %%xmm0,%%xmm8\n\tmovaps %%xmm0,%%xmm9\n\tmovaps %%xmm0,%%xmm10\n\tmovaps %%xmm0,%%xmm11\n\t"
      "mov %0, %%rcx\n"
      "1:\n\t"
      "mulps %%xmm14,%%xmm0\n\taddps %%xmm15,%%xmm1\n\tmulps %%xmm14,%%xmm2\n\taddps %%xmm15,%%xmm3\n\t"
      "mulps %%xmm14,%%xmm4\n\taddps %%xmm15,%%xmm5\n\tmulps %%xmm14,%%xmm6\n\taddps %%xmm15,%%xmm7\n\t"
      "mulps %%xmm14,%%xmm8\n\taddps %%xmm15,%%xmm9\n\tmulps %%xmm14,%%xmm10\n\taddps %%xmm15,%%xmm11\n\t"
      "dec %%rcx\n\tjnz 1b\n"
      :
      : "r"(iters), "m"((float){0.999999f}), "m"((float){1e-7f})
      : "rcx", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm14", "xmm15");
}
#else
/* Other architectures (arm64: NEON): 128-bit vector extensions in separate variables so they stay in registers;
   -march=native contracts a * m + d into one fused multiply-add. */
#define PATH "neon-or-generic"
#define LANES 4
#define CHAINS 16
typedef float v4 __attribute__((vector_size(16)));
static void fma_chains(long iters) {
  v4 m = (v4){0} + 0.999999f, d = (v4){0} + 1e-7f;
  v4 a0 = m, a1 = m, a2 = m, a3 = m, a4 = m, a5 = m, a6 = m, a7 = m;
  v4 a8 = m, a9 = m, a10 = m, a11 = m, a12 = m, a13 = m, a14 = m, a15 = m;
  for (long i = 0; i < iters; i++) {
    a0 = a0 * m + d, a1 = a1 * m + d, a2 = a2 * m + d, a3 = a3 * m + d;
    a4 = a4 * m + d, a5 = a5 * m + d, a6 = a6 * m + d, a7 = a7 * m + d;
    a8 = a8 * m + d, a9 = a9 * m + d, a10 = a10 * m + d, a11 = a11 * m + d;
    a12 = a12 * m + d, a13 = a13 * m + d, a14 = a14 * m + d, a15 = a15 * m + d;
  }
  v4 s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15;
  sink += s[0];
}
#endif
#ifndef FLOPS_PER_LANE
#define FLOPS_PER_LANE 2
#endif

/* ---- memory ---- */
static void triad_nt(float *restrict a, const float *restrict b, const float *restrict c, size_t n) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i += 16) {
#if defined(__x86_64__) && defined(__AVX512F__)
    _mm512_stream_ps(a + i, _mm512_fmadd_ps(_mm512_set1_ps(3.0f), _mm512_load_ps(c + i), _mm512_load_ps(b + i)));
#elif defined(__x86_64__) && defined(__AVX__)
    for (int k = 0; k < 16; k += 8)
      _mm256_stream_ps(a + i + k, _mm256_add_ps(_mm256_load_ps(b + i + k),
                                                _mm256_mul_ps(_mm256_set1_ps(3.0f), _mm256_load_ps(c + i + k))));
#elif defined(__x86_64__)
    for (int k = 0; k < 16; k += 4)
      _mm_stream_ps(a + i + k, _mm_add_ps(_mm_load_ps(b + i + k), _mm_mul_ps(_mm_set1_ps(3.0f), _mm_load_ps(c + i + k))));
#else
    for (int k = 0; k < 16; k++) a[i + k] = b[i + k] + 3.0f * c[i + k];
#endif
  }
}

static void triad_plain(float *restrict a, const float *restrict b, const float *restrict c, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0f * c[i];
}

static float read_sum(const float *restrict a, size_t n) {
  float s = 0;
#pragma omp parallel for simd reduction(+ : s) schedule(static)
  for (size_t i = 0; i < n; i++) s += a[i];
  return s;
}

static double best_of(double *t, int k) {
  double b = t[0];
  for (int i = 1; i < k; i++)
    if (t[i] < b) b = t[i];
  return b;
}

/* Seconds per call of fma_chains(iters) on `threads` threads at once (the slowest thread), best of `runs`. */
static double time_fma(long iters, int threads, int runs) {
  double t[64];
  for (int r = 0; r < runs; r++) {
    double worst = 0;
#pragma omp parallel num_threads(threads) reduction(max : worst)
    {
#pragma omp barrier
      double t0 = now();
      fma_chains(iters);
      worst = now() - t0;
    }
    t[r] = worst;
  }
  return best_of(t, runs);
}

/* Adds per second on each of `threads` threads at once: the mean over threads of each one's best run. */
static double clock_hz(int threads, int runs) {
  const long iters = 250000; /* 1M adds: about 0.3-0.5 ms at 2-4 GHz */
  double sum = 0;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
  {
    double best = 1e30;
    for (int r = 0; r < runs; r++) {
      double t0 = now();
      add_chain(iters);
      double t = now() - t0;
      if (t < best) best = t;
    }
    sum += 4.0 * iters / best;
  }
  return sum / threads;
}

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)96 << 20;
  int cores = argc > 2 ? atoi(argv[2]) : 0;
  int threads = omp_get_max_threads();
  if (cores <= 0) cores = threads;
  const int runs = 9;

  /* Clock on every thread at once (the all-core clock the FMA test runs at), and on one; measured again between
     and after the other tests, and the highest kept: a descheduled thread only ever makes it look slower. */
  add_chain(1000000);
  double clk_all = clock_hz(threads, 40), clk_one = clock_hz(1, 40);
#define MORE_CLOCK()                                         \
  do {                                                       \
    double c_ = clock_hz(threads, 40);                       \
    if (c_ > clk_all) clk_all = c_;                          \
  } while (0)

  /* FMA: calibrate a run of about 10 ms on one thread, then best of `runs` on all threads and on one. */
  long iters = 20000;
  double t1 = time_fma(iters, 1, 3);
  if (t1 > 0) iters = (long)(iters * 0.010 / t1) + 1;
  double flops_per_call = (double)FLOPS_PER_LANE * LANES * CHAINS * (double)iters;
  double f_all = flops_per_call * threads / time_fma(iters, threads, runs) / 1e9;
  double f_one = flops_per_call / time_fma(iters, 1, runs) / 1e9;
  MORE_CLOCK();

  /* Memory: three arrays of `bytes` each, first touched by the threads that use them. */
  size_t n = bytes / 4 / 64 * 64;
  float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4), *c = aligned_alloc(64, n * 4);
  if (!a || !b || !c) return 1;
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) a[i] = 0, b[i] = 1, c[i] = 2;
  const int mruns = 15;
  double tn[15], tp[15], tr[15];
  for (int r = 0; r < mruns; r++) {
    double t0 = now();
    triad_nt(a, b, c, n);
    double t1b = now();
    sink += read_sum(a, n);
    double t2 = now();
    triad_plain(a, b, c, n);
    double t3 = now();
    tn[r] = t1b - t0, tr[r] = t2 - t1b, tp[r] = t3 - t2;
  }
  MORE_CLOCK();
  double triad = 12.0 * n / best_of(tn, mruns) / 1e9;
  double plain = 12.0 * n / best_of(tp, mruns) / 1e9;
  double readbw = 4.0 * n / best_of(tr, mruns) / 1e9;
  /* The same on one thread: a neighbour busy on one core slows the all-threads runs to their slowest thread (static
     schedule), while one thread moves to a free core; a candidate timed on its core budget (the free cores) can then
     beat an all-threads figure measured beside that neighbour. One thread's bandwidth is a floor of the machine's, so
     the larger of the two is the peak. */
  const int oruns = 6;
  double to[6], tor[6];
  int saved_threads = omp_get_max_threads();
  omp_set_num_threads(1);
  for (int r = 0; r < oruns; r++) {
    double t0 = now();
    triad_nt(a, b, c, n);
    double t1b = now();
    sink += read_sum(a, n);
    to[r] = t1b - t0, tor[r] = now() - t1b;
  }
  omp_set_num_threads(saved_threads);
  double triad_one = 12.0 * n / best_of(to, oruns) / 1e9;
  double read_one = 4.0 * n / best_of(tor, oruns) / 1e9;

  printf("path=%s\nlanes=%d\nchains=%d\nthreads=%d\ncores=%d\n", PATH, LANES, CHAINS, threads, cores);
  printf("clock_all_ghz=%.4f\nclock_one_ghz=%.4f\n", clk_all / 1e9, clk_one / 1e9);
  printf("fma_runs=%d\nfma_ms=%.2f\ngflops_all=%.3f\ngflops_one=%.3f\n", runs, flops_per_call / (f_one * 1e9) * 1e3,
         f_all, f_one);
  printf("mem_runs=%d\narray_bytes=%zu\ntriad_nt_gbps=%.3f\ntriad_gbps=%.3f\nread_gbps=%.3f\n", mruns, n * 4, triad,
         plain, readbw);
  printf("triad_nt_one_gbps=%.3f\nread_one_gbps=%.3f\n", triad_one, read_one);
  free(a), free(b), free(c);
  return 0;
}
