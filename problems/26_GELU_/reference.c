#include <math.h>
#include <stdint.h>

void reference(const float* x, float* y, int64_t n) {
  const float k = 0.7978845608028654f; /* sqrt(2 / pi) */
  for (int64_t i = 0; i < n; i++) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
  }
}
