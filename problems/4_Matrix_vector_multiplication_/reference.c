#include <stdint.h>

void reference(const float* A, const float* x, float* y, int64_t m, int64_t k) {
  for (int64_t i = 0; i < m; i++) {
    float s = 0.0f;
    for (int64_t j = 0; j < k; j++) s += A[i * k + j] * x[j];
    y[i] = s;
  }
}
