#include <math.h>
#include <stdint.h>

void reference(const float* X, const float* W, float* Y, int64_t m, int64_t n, int64_t k, float scale) {
  for (int64_t i = 0; i < m; i++) {
    float* y = Y + i * n;
    for (int64_t j = 0; j < n; j++) y[j] = 0.0f;
    for (int64_t p = 0; p < k; p++) {
      float a = X[i * k + p];
      for (int64_t j = 0; j < n; j++) y[j] += a * W[p * n + j];
    }
    for (int64_t j = 0; j < n; j++) y[j] = 1.0f / (1.0f + expf(-scale * y[j]));
  }
}
