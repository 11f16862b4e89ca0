/* Probe (the core budget): reads the cpus it was given, then on every call widens itself to every cpu of the
   machine with sched_setaffinity, as a candidate that wanted the cores the baseline does not have. Expected:
   accepted, the cpus it first saw are the budget the result reports, and where that budget is narrower than the
   machine the harness finds the widened threads after its timed calls, sets them back and flags the result for
   review (load.budget_resets). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static int done;
void solution(const float* x, float* y, int64_t n) {
  if (!done) {
    done = 1;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
      printf("cores seen:");
      for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) printf(" %d", c);
      printf("\n");
    }
  }
  cpu_set_t all;
  CPU_ZERO(&all);
  long n_cpus = sysconf(_SC_NPROCESSORS_CONF);
  for (long c = 0; c < n_cpus && c < CPU_SETSIZE; c++) CPU_SET(c, &all);
  int r = sched_setaffinity(0, sizeof all, &all);
  if (done++ == 1) printf("widen %s\n", r == 0 ? "ALLOWED" : strerrorname_np(errno));
  fflush(stdout);
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
}
