/* Measures the cpu's peaks for roofline figures: memory bandwidth (non-temporal triad and a read-only
   sum, the larger wins, so kernels that avoid write-allocate are not called impossible) and fp32 FMA
   throughput on all cores. Prints: <GB/s> <GFLOP/s> */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

typedef float v16 __attribute__((vector_size(64)));

int main(void) {
  const size_t n = 24u << 20; /* 96 MiB per array, well past the last-level cache */
  float *a = aligned_alloc(64, n * 4), *b = aligned_alloc(64, n * 4), *c = aligned_alloc(64, n * 4);
#pragma omp parallel for
  for (size_t i = 0; i < n; i++) a[i] = 0, b[i] = 1, c[i] = 2;
  double triads[15], reads[15];
  volatile float sink = 0;
  for (int r = 0; r < 15; r++) {
    double t0 = now();
#pragma omp parallel for
    for (size_t i = 0; i < n; i += 16) {
#ifdef __AVX512F__
      __m512 x = _mm512_fmadd_ps(_mm512_set1_ps(3.0f), _mm512_load_ps(c + i), _mm512_load_ps(b + i));
      _mm512_stream_ps(a + i, x);
#else
      for (int k = 0; k < 16; k++) a[i + k] = b[i + k] + 3.0f * c[i + k];
#endif
    }
    double t1 = now();
    float s = 0;
#pragma omp parallel for reduction(+ : s)
    for (size_t i = 0; i < n; i++) s += a[i];
    double t2 = now();
    sink += s;
    triads[r] = t1 - t0;
    reads[r] = t2 - t1;
  }
  /* Bests: on a busy machine the typical run understates what an honest kernel can reach. */
  qsort(triads, 15, sizeof(double), cmp);
  qsort(reads, 15, sizeof(double), cmp);
  double best_triad = triads[0], best_read = reads[0];
  double triad = 3.0 * n * 4 / best_triad / 1e9, readbw = 1.0 * n * 4 / best_read / 1e9;
  double best_flops = 0, single = 0;
  for (int r = 0; r < 6; r++) {
    /* Half the runs on one thread: per-core FMA throughput times the cores is the peak even when
       another process holds a core while we measure. */
    if (r % 2) omp_set_num_threads(1);
    else omp_set_num_threads(omp_get_num_procs());
    const long iters = 4000000;
    double t0 = now();
    int threads = 1;
#pragma omp parallel
    {
#pragma omp single
      threads = omp_get_num_threads();
      v16 acc[12];
      for (int k = 0; k < 12; k++) acc[k] = (v16){0} + (float)k;
      v16 m = (v16){0} + 0.999999f, d = (v16){0} + 1e-7f;
      for (long i = 0; i < iters; i++)
        for (int k = 0; k < 12; k++) acc[k] = acc[k] * m + d;
      float s = 0;
      for (int k = 0; k < 12; k++) s += acc[k][0];
      sink += s;
    }
    double t = now() - t0;
    double f = 2.0 * 16 * 12 * iters * threads / t / 1e9;
    if (threads == 1 && f * omp_get_num_procs() > single) single = f * omp_get_num_procs();
    if (f > best_flops) best_flops = f;
  }
  if (getenv("KF_PEAKS_DEBUG")) fprintf(stderr, "triad %.4fs read %.4fs\n", best_triad, best_read);
  if (single > best_flops) best_flops = single;
  printf("%.2f %.2f\n", triad > readbw ? triad : readbw, best_flops);
  (void)sink;
  return 0;
}
