#include <stdint.h>

void reference(const float* x, float* y, int64_t n, float slope) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0.0f ? x[i] : slope * x[i];
}
