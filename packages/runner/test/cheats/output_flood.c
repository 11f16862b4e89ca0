/* Cheat: floods stdout (several MB per call) while computing correctly. Expected: accepted, output capped. */
#include <stdint.h>
#include <stdio.h>
void solution(const float* x, float* y, int64_t n) {
  for (int i = 0; i < 100000; i++) fputs("flood flood flood flood flood flood flood flood flood flood\n", stdout);
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
