#include <math.h>
#include <stdint.h>

void reference(const float* x, const float* gamma, const float* beta, float* y, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; i++) {
    const float* xr = x + i * cols;
    double mean = 0.0, var = 0.0;
    for (int64_t j = 0; j < cols; j++) mean += xr[j];
    mean /= (double)cols;
    for (int64_t j = 0; j < cols; j++) var += (xr[j] - mean) * (xr[j] - mean);
    var /= (double)cols;
    double inv = 1.0 / sqrt(var + 1e-5);
    for (int64_t j = 0; j < cols; j++) y[i * cols + j] = (float)((xr[j] - mean) * inv * gamma[j] + beta[j]);
  }
}
