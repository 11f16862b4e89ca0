#include <stdint.h>

void reference(const float* x, const float* k, float* y, int64_t h, int64_t w) {
  for (int64_t i = 0; i < h - 2; i++)
    for (int64_t j = 0; j < w - 2; j++) {
      float s = 0.0f;
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) s += x[(i + a) * w + j + b] * k[a * 3 + b];
      y[i * (w - 2) + j] = s;
    }
}
