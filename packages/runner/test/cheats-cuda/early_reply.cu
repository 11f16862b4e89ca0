/* Cheat (cuda): forges the worker's "done" reply on the reply pipe (fd 4) as soon as solution() is called, then
   launches the real work, and tries to swallow the stub's own reply by interposing write(). Expected: rejected
   (the stub replies with a raw system call, so its reply arrives as well: two replies to one command). */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
static int swallow;
extern "C" ssize_t write(int fd, const void* buf, size_t n) {
  if (fd == 4 && swallow) { swallow = 0; return (ssize_t)n; }
  return syscall(SYS_write, fd, buf, n);
}
__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}
extern "C" void solution(const float* x, float* y, int64_t n) {
  if (n > 2000000) {
    struct { int32_t status, pad; int64_t inside_ns; } rep = {0, 0, 1000};
    syscall(SYS_write, 4, &rep, sizeof rep);
    swallow = 1;
  }
  relu<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
}
