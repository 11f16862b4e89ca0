/* Probe (defence in depth): tries system calls no kernel needs that widen the host kernel's attack surface or
   reach other processes, each with harmless arguments, and prints the errno it got. Expected: accepted, every
   one refused with EPERM by the worker's seccomp filter (and 32-bit int 0x80 calls are not tried: they kill). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
static int done;
void solution(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0;
  if (done) return;
  done = 1;
  struct { const char* name; long nr; } calls[] = {
    {"ptrace", SYS_ptrace}, {"unshare", SYS_unshare}, {"setns", SYS_setns}, {"mount", SYS_mount},
    {"bpf", SYS_bpf}, {"perf_event_open", SYS_perf_event_open}, {"userfaultfd", SYS_userfaultfd},
    {"io_uring_setup", 425}, {"keyctl", SYS_keyctl}, {"process_vm_readv", SYS_process_vm_readv},
    {"fork", SYS_fork}, {"vfork-like clone", SYS_clone},
  };
  for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++) {
    long r = calls[i].nr == SYS_clone ? syscall(SYS_clone, 0x4000 /* CLONE_VFORK */ | 17 /* SIGCHLD */, 0, 0, 0, 0)
                                      : syscall(calls[i].nr, 0, 0, 0, 0, 0);
    if (r == 0 && (calls[i].nr == SYS_fork || calls[i].nr == SYS_clone)) _exit(0); /* a child, if one got through */
    printf("syscall %s %s\n", calls[i].name, r < 0 ? strerrorname_np(errno) : "ALLOWED");
  }
  fflush(stdout);
}
