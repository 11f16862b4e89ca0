/* A correct blocked matmul: OpenMP over rows, i-k-j inside a k-block so rows of B stay in cache. */
#include <stdint.h>
void solution(const float* restrict A, const float* restrict B, float* restrict C, int64_t n) {
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; i++) {
    float* c = C + i * n;
    for (int64_t j = 0; j < n; j++) c[j] = 0.0f;
    for (int64_t k0 = 0; k0 < n; k0 += 256) {
      int64_t k1 = k0 + 256 < n ? k0 + 256 : n;
      for (int64_t k = k0; k < k1; k++) {
        float a = A[i * n + k];
#pragma omp simd
        for (int64_t j = 0; j < n; j++) c[j] += a * B[k * n + j];
      }
    }
  }
}
