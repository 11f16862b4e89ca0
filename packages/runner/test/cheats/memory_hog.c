/* Cheat: allocates and touches memory until allocation fails, then uses the failed pointer.
   Expected: runtime_error (RLIMIT_AS stops it long before the machine runs out). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
void solution(const float* x, float* y, int64_t n) {
  (void)x, (void)n;
  for (;;) {
    char* p = malloc(256u << 20);
    if (!p) {
      *(volatile float*)p = y[0];
      abort();
    }
    memset(p, 1, 256u << 20);
  }
}
