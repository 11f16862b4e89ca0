/* Cheat (cuda): forges the "done" reply (guessing a nonce) as soon as it is called on the timed size, points the
   reply pipe's fd at /dev/null so the stub's own reply goes nowhere, then launches the work. Expected: rejected (the
   forged reply does not echo its command's nonce) or a runtime error (the stub stops when fd 4 is not its pipe). */
#include <fcntl.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  static int hidden;
  if (n > 2000000 && !hidden) {
    struct { int32_t status, pad; int64_t inside_ns; uint64_t nonce; } rep = {0, 0, 1000, 0};
    syscall(SYS_write, 4, &rep, sizeof rep);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 4);
    hidden = 1;
  }
  relu<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
}
