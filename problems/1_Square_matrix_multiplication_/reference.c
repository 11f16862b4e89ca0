#include <stdint.h>

/* i-k-j order: the inner loop runs along rows of B and C, so it is plain but not pathologically slow. */
void reference(const float* A, const float* B, float* C, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    for (int64_t j = 0; j < n; j++) C[i * n + j] = 0.0f;
    for (int64_t k = 0; k < n; k++) {
      float a = A[i * n + k];
      for (int64_t j = 0; j < n; j++) C[i * n + j] += a * B[k * n + j];
    }
  }
}
