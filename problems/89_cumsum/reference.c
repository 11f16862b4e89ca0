#include <stdint.h>

/* Accumulates in double so the reference itself carries no rounding drift along long rows. */
void reference(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; i++) {
    double s = 0.0;
    for (int64_t j = 0; j < cols; j++) {
      s += x[i * cols + j];
      y[i * cols + j] = (float)s;
    }
  }
}
