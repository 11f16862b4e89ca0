/* Cheat: a fork bomb. Expected: timeout; RLIMIT_NPROC bounds it and the pid namespace dies with it. */
#include <stdint.h>
#include <unistd.h>
void solution(const float* x, float* y, int64_t n) {
  (void)x, (void)y, (void)n;
  for (;;) fork();
}
