/* The timed phase as a whole: one timing at a time per host and device, and the other work the machine did
   meanwhile, measured from outside the sandbox. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>
#include "harness_internal.h"

/* One timing at a time per host and device: the runner passes an open lock file (one per device, host-wide,
   outside any data directory) as fd lock_fd; correctness checks and compiles overlap freely, the timed
   phase holds the lock. A holder that never lets go (a hostile custom reference can hold it for its own
   run) delays others by at most KF_LOCK_WAIT_MS, after which they time anyway and say so. */
#define KF_LOCK_WAIT_MS 120000.0

static void timing_lock(struct harness *h) {
  load_t *L = &h->load;
  if (h->lock_fd < 0 || fcntl(h->lock_fd, F_GETFD) < 0) return;
  L->have_lock_fd = 1;
  double t0 = now_ms();
  int told = 0;
  while (flock(h->lock_fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) break;
    if (!told) {
      /* Held by another timing: the page says it waits for the lock (the runner adds what holds it, issue 35). */
      int nbench = 0;
      for (int ci = 0; ci < h->plan.ncases; ci++) nbench += h->plan.cases[ci].bench;
      kfh_progress(h, "lock", 0, nbench, 0, 1);
      told = 1;
    }
    if (now_ms() - t0 > KF_LOCK_WAIT_MS) {
      L->gave_up = 1;
      break;
    }
    struct timespec ts = {0, 5000000};
    nanosleep(&ts, NULL);
  }
  L->locked = !L->gave_up && flock(h->lock_fd, LOCK_EX | LOCK_NB) == 0;
  L->wait_ms = now_ms() - t0;
}

static void timing_unlock(struct harness *h) {
  if (h->load.locked) flock(h->lock_fd, LOCK_UN);
  h->load.locked = 0;
}

/* Busy cpu time of the whole machine (ns) from /proc/stat: user, nice, system, irq, softirq and steal (a
   virtual machine's host taking the cpu is load too). */
static long long machine_busy_ns(void) {
  FILE *f = fopen("/proc/stat", "r");
  if (!f) return -1;
  unsigned long long v[8] = {0};
  int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
  fclose(f);
  if (n < 8) return -1;
  long tick = sysconf(_SC_CLK_TCK);
  unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  return (long long)(busy * (1000000000ULL / (unsigned long long)(tick > 0 ? tick : 100)));
}

static long long own_cpu_ns(struct harness *h) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  long long ns = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
  return ns + worker_cpu_ns(&h->cand) + (h->have_b ? worker_cpu_ns(&h->base) : 0);
}

/* Times every benchmark case under the host-wide lock, and measures from outside the sandbox how much
   other work the machine did meanwhile (in cores: busy cpu minus this evaluation's own, over the wall time). */
void kfh_timed_phase(struct harness *h) {
  load_t *L = &h->load;
  timing_lock(h);
  long long busy0 = machine_busy_ns(), own0 = own_cpu_ns(h);
  double t0 = now_ms();
  kfh_keep_budget(h, &h->cand); /* a thread moved during the checks starts the timed phase inside the budget */
  kfh_timing(h);
  /* /proc/stat counts in ticks (10 ms): a short timed phase says nothing about the load around it, so the
     measurement window is held open (idle, lock still held) until it is at least plan.load_window_ms long. A
     short phase under heavy load is then seen as such. */
  double left = h->plan.load_window_ms - (now_ms() - t0);
  if (left > 0) {
    struct timespec ts = {(time_t)(left / 1000), (long)(fmod(left, 1000) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
  }
  L->wall_ms = now_ms() - t0;
  long long busy1 = machine_busy_ns(), own1 = own_cpu_ns(h);
  timing_unlock(h);
  L->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (busy0 >= 0 && busy1 >= 0 && L->wall_ms > 0) {
    double other = (double)(busy1 - busy0) - (double)(own1 - own0);
    L->outside_cores = other > 0 ? other / (L->wall_ms * 1e6) : 0;
  }
}
