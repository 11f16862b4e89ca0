#include <stdint.h>

__global__ void kf_softmax_rows(const float* x, float* y, int64_t rows, int64_t cols) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float* xr = x + i * cols;
    float* yr = y + i * cols;
    float mx = xr[0];
    for (int64_t j = 1; j < cols; j++) mx = fmaxf(mx, xr[j]);
    double s = 0.0;
    for (int64_t j = 0; j < cols; j++) {
      yr[j] = expf(xr[j] - mx);
      s += yr[j];
    }
    for (int64_t j = 0; j < cols; j++) yr[j] = (float)(yr[j] / s);
  }
}

extern "C" void reference(const float* x, float* y, int64_t rows, int64_t cols) {
  kf_softmax_rows<<<(unsigned)((rows + 127) / 128), 128>>>(x, y, rows, cols);
}
