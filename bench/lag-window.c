/* How a quiet reading of another process's cpu clock can be short (issue 31): a child answers each command over a
   pipe after ~CALL_MS of work, then blocks reading the next; right after each answer the parent reads the child's
   state and cpu clock the way the C harness does, and 2 ms later reads the clock again (by then the child has surely
   been switched out and its time folded in). A "quiet" reading (state S) that the later one exceeds by more than
   0.1 ms is short. Three ways of reading:
     clock-then-state   the harness before 92e58d9 (the clock read first);
     state-then-clock   after 92e58d9 (a thread already marked S can still be on its cpu until the switch);
     confirmed          after it, with settle's confirmation: a second quiet reading KF_CONFIRM_NS later must agree;
     first-S            the state read again and again until it says S, then the clock: the reading taken as close to
                        the moment the thread marks itself asleep as a scan can be, which is where the window is;
     first-S-confirmed  the same, then settle's confirmation.
   Figures, not assertions; the short readings need a busy or overcommitted machine to show (hypervisor steal).
   Build and run: gcc -O2 -o /tmp/lag-window bench/lag-window.c && /tmp/lag-window [calls=20000] [call_ms=1.5] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long pclock(pid_t p) {
  clockid_t c;
  struct timespec t;
  if (clock_getcpuclockid(p, &c) || clock_gettime(c, &t)) return -1;
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}
static char state(pid_t p) {
  char path[64], b[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)p);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return '?';
  ssize_t r = read(fd, b, sizeof b - 1);
  close(fd);
  if (r <= 0) return '?';
  b[r] = 0;
  char *rp = strrchr(b, ')');
  return rp ? rp[2] : '?';
}
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}
static void pause_ns(long ns) {
  struct timespec ts = {0, ns};
  nanosleep(&ts, NULL);
}

int main(int argc, char **argv) {
  int calls = argc > 1 ? atoi(argv[1]) : 20000;
  double call_ms = argc > 2 ? atof(argv[2]) : 1.5;
  const char *names[5] = {"clock-then-state", "state-then-clock", "confirmed", "first-S", "first-S-confirmed"};
  for (int way = 0; way < 5; way++) {
    int c2p[2], p2c[2];
    if (pipe(c2p) || pipe(p2c)) return 1;
    pid_t pid = fork();
    if (pid == 0) {
      char x;
      volatile double s = 0;
      while (read(p2c[0], &x, 1) == 1) {
        double t0 = now_ms();
        while (now_ms() - t0 < call_ms) s += 1;
        if (write(c2p[1], &x, 1) != 1) break;
      }
      _exit(0);
    }
    int quiet = 0, shortn = 0;
    long long worst = 0;
    for (int i = 0; i < calls / 3; i++) {
      char x = 'a';
      if (write(p2c[1], &x, 1) != 1 || read(c2p[0], &x, 1) != 1) return 1;
      long long a;
      char st;
      if (way == 0) {
        a = pclock(pid);
        st = state(pid);
      } else if (way >= 3) {
        while ((st = state(pid)) == 'R') {
        }
        a = pclock(pid);
      } else {
        st = state(pid);
        a = pclock(pid);
      }
      if (st != 'S') continue;
      if (way == 2 || way == 4) {
        /* settle: a second quiet reading must find the same cpu; otherwise keep reading until two agree. */
        for (;;) {
          pause_ns(200000L);
          char st2 = state(pid);
          long long b = pclock(pid);
          if (st2 == 'S' && b == a) break;
          a = b;
        }
      }
      quiet++;
      pause_ns(2000000L);
      long long later = pclock(pid);
      if (later - a > 100000) {
        shortn++;
        if (later - a > worst) worst = later - a;
      }
    }
    close(p2c[1]);
    close(c2p[0]);
    printf("%-18s %6d quiet readings, %4d short by over 0.1 ms (worst %.3f ms)\n", names[way], quiet, shortn,
           worst * 1e-6);
  }
  return 0;
}
