/* Cheat: like early_reply.c, but starts honestly. On the timed (large) sizes it does the first quarter of the
   array with OpenMP, forges the "done" reply (reporting its own clock up to that point, so the inside and
   outside clocks agree), then does the other three quarters on one thread, and swallows the stub's real
   reply. Were the harness's clock stopped by the forged reply, the measured time would be a fraction of the
   real one. Expected: rejected (cpu used after the reply; or, when the machine is so loaded that the harness
   only reads the reply after the work is done, its clock disagreeing with the outside one), or accepted with
   a time that includes all of the work.
   With KF_HONEST_TWIN defined it is the same kernel without the forged reply. */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static int swallow;
ssize_t write(int fd, const void* buf, size_t n) {
  if (fd == 4 && swallow) { swallow = 0; return (ssize_t)n; }
  return syscall(SYS_write, fd, buf, n);
}
static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}
void solution(const float* x, float* y, int64_t n) {
  int64_t t0 = now_ns();
  int64_t head = n > 2000000 ? n / 4 : n;
#pragma omp parallel for simd
  for (int64_t i = 0; i < head; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (head < n) {
#ifndef KF_HONEST_TWIN
    struct { int32_t status, pad; int64_t inside_ns; } rep = {0, 0, 0};
    rep.inside_ns = now_ns() - t0;
    syscall(SYS_write, 4, &rep, sizeof rep);
    swallow = 1;
#endif
    for (int64_t i = head; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  }
}
