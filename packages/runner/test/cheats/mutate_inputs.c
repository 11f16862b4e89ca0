/* Cheat: computes in place in the input and copies out, leaving x modified. Expected: incorrect, naming x. */
#include <stdint.h>
void solution(const float* x, float* y, int64_t n) {
  float* w = (float*)x;
  for (int64_t i = 0; i < n; i++) {
    w[i] = w[i] > 0 ? w[i] : 0;
    y[i] = w[i];
  }
}
