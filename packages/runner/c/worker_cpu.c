/* Worker stub for cpu candidates: maps the shared data, then on each RUN calls solution() once and times
   itself. It is linked with the candidate, so nothing it reports is trusted; the harness re-times it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#define KF_STUB_IO
#include "kf_protocol.h"

void kf_call_solution(const kf_arg *a); /* generated glue */

int main(void) {
  const int cmd_fd = 3, reply_fd = 4, shm_fd = 5;
  struct stat st;
  if (fstat(shm_fd, &st) != 0) return 90;
  char *base = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
  if (base == MAP_FAILED) return 91;
  kf_reply rep = {KF_HELLO, 0, 0, 0};
  struct stat reply_pipe;
  if (kf_sys3(KF_SYS_FSTAT, reply_fd, (long)&reply_pipe, 0) != 0) return 92;
  if (kf_write_full(reply_fd, &rep, sizeof rep)) return 92;
  kf_cmd cmd;
  while (kf_read_full(cmd_fd, &cmd, sizeof cmd) == 0) {
    if (cmd.op == KF_OP_EXIT) break;
    rep.status = 0;
    rep.inside_ns = 0;
    /* Held apart from the command, which the candidate's call can reach through its arguments' neighbourhood. */
    const uint64_t nonce = cmd.nonce;
    *(volatile uint64_t *)&cmd.nonce = 0;
    if (cmd.op == KF_OP_RUN) {
      kf_arg a[KF_MAX_ARGS];
      for (int i = 0; i < kf_nargs && i < KF_MAX_ARGS; i++) {
        a[i] = cmd.args[i];
        if (kf_is_ptr[i]) a[i].p = base + cmd.args[i].off;
      }
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      kf_call_solution(a);
      clock_gettime(CLOCK_MONOTONIC, &t1);
      rep.inside_ns = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    }
    rep.nonce = nonce;
    if (!kf_same_file(reply_fd, &reply_pipe)) return 95;
    if (kf_write_full(reply_fd, &rep, sizeof rep)) return 93;
  }
  return 0;
}
