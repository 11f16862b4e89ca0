/* Cheat: replaces clock_gettime (and gettimeofday) so its own timing reads a tenth of the real time (a half was
   within the check's slack on a fast machine under load: the single-threaded 8M ReLU there takes 1-3 ms).
   Expected: rejected (the harness's outside timing disagrees). */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
static int64_t base_ns = -1;
int clock_gettime(clockid_t id, struct timespec* ts) {
  struct timespec real;
  syscall(SYS_clock_gettime, id, &real);
  int64_t ns = (int64_t)real.tv_sec * 1000000000 + real.tv_nsec;
  if (base_ns < 0) base_ns = ns;
  ns = base_ns + (ns - base_ns) / 10;
  ts->tv_sec = ns / 1000000000;
  ts->tv_nsec = ns % 1000000000;
  return 0;
}
int gettimeofday(struct timeval* tv, void* tz) {
  (void)tz;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  tv->tv_sec = ts.tv_sec;
  tv->tv_usec = ts.tv_nsec / 1000;
  return 0;
}
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
