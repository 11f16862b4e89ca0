/* Cheat: never returns. Expected: timeout. */
#include <stdint.h>
void solution(const float* x, float* y, int64_t n) {
  volatile int spin = 1;
  while (spin) (void)x, (void)y, (void)n;
}
