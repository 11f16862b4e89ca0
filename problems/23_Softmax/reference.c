#include <math.h>
#include <stdint.h>

void reference(const float* x, float* y, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; i++) {
    const float* xr = x + i * cols;
    float* yr = y + i * cols;
    float mx = xr[0];
    for (int64_t j = 1; j < cols; j++) mx = xr[j] > mx ? xr[j] : mx;
    double s = 0.0;
    for (int64_t j = 0; j < cols; j++) {
      yr[j] = expf(xr[j] - mx);
      s += yr[j];
    }
    for (int64_t j = 0; j < cols; j++) yr[j] = (float)(yr[j] / s);
  }
}
