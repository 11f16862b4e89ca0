#include <stdint.h>

void reference(const float* x, float* y, int64_t b, int64_t r, int64_t c) {
  for (int64_t i = 0; i < b; i++) {
    for (int64_t k = 0; k < c; k++) y[i * c + k] = 0.0f;
    for (int64_t j = 0; j < r; j++)
      for (int64_t k = 0; k < c; k++) y[i * c + k] += x[(i * r + j) * c + k];
  }
}
