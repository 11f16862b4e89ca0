/* Cheat: forges the worker's "done" reply. solution() writes a reply on the reply pipe (fd 4) as soon as it
   is called, so the harness stops its clock almost at once, then does the real work afterwards and swallows
   the stub's own reply by interposing write(). On the timed (large) sizes the measured time would be a few
   microseconds. Expected: rejected (work after the reply is work outside the timed window). */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
static int swallow;
ssize_t write(int fd, const void* buf, size_t n) {
  if (fd == 4 && swallow) { swallow = 0; return (ssize_t)n; }
  return syscall(SYS_write, fd, buf, n);
}
void solution(const float* x, float* y, int64_t n) {
  if (n > 2000000) {
    struct { int32_t status, pad; int64_t inside_ns; } rep = {0, 0, 1000};
    syscall(SYS_write, 4, &rep, sizeof rep);
    swallow = 1;
  }
#pragma omp parallel for simd
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
