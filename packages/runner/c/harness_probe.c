/* cuda: the trusted end of a timed call. The harness starts its own probe process (c/probe_cuda.cu, path in the
   KF_PROBE environment variable; never linked with candidate code), hands it each worker's CUDA IPC handle, and right
   after each timed reply asks it for a keyed checksum of the call's outputs (the key drawn after the reply), then for
   a copy of them, which is what the checks read. docs/evaluation.md "cuda: the trusted end of a call". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness_internal.h"

/* One command (one message on the probe's socket, with `fd` passed along when >= 0) and its reply. */
static int probe_io_fd(struct harness *h, const kf_probe_cmd *c, kf_probe_reply *r, int fd) {
  memset(r, 0, sizeof *r);
  char ctrl[CMSG_SPACE(sizeof(int))];
  struct iovec iov = {(void *)c, sizeof *c};
  struct msghdr m;
  memset(&m, 0, sizeof m);
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  if (fd >= 0) {
    memset(ctrl, 0, sizeof ctrl);
    m.msg_control = ctrl;
    m.msg_controllen = sizeof ctrl;
    struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cm), &fd, sizeof fd);
  }
  ssize_t w;
  do w = sendmsg(h->probe.cmd_fd, &m, MSG_NOSIGNAL);
  while (w < 0 && errno == EINTR);
  if (w != (ssize_t)sizeof *c) return -1;
  char *q = (char *)r;
  size_t n = sizeof *r;
  /* The probe answers within the call limit or is given up on (a device held by a kernel that never ends, a dead
     probe): never a harness waiting for ever. */
  double deadline = now_ms() + (h->plan.call_timeout_ms > 0 ? h->plan.call_timeout_ms : 10000.0);
  while (n > 0) {
    struct pollfd pf = {h->probe.reply_fd, POLLIN, 0};
    double left = deadline - now_ms();
    if (left <= 0) {
      snprintf(r->why, sizeof r->why, "the probe did not answer within %.0f ms", h->plan.call_timeout_ms);
      kill(h->probe.pid, SIGKILL); /* a late answer must never be read as the next command's */
      h->probe.open[0] = h->probe.open[1] = 0;
      return -1;
    }
    if (poll(&pf, 1, (int)left + 1) <= 0) continue;
    ssize_t got = read(h->probe.reply_fd, q, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    q += got;
    n -= (size_t)got;
  }
  return 0;
}

static int probe_io(struct harness *h, const kf_probe_cmd *c, kf_probe_reply *r) { return probe_io_fd(h, c, r, -1); }

/* Starts the probe with the harness's output copy (a memfd of `size` bytes) as its fd 5. 0: started. */
int kfh_probe_start(struct harness *h, size_t size) {
  probe_t *P = &h->probe;
  P->pid = -1;
  P->cmd_fd = P->reply_fd = -1;
  const char *path = getenv("KF_PROBE");
  if (!h->plan.cuda || h->plan.probe_off || !path || !*path || access(path, X_OK) != 0) {
    snprintf(P->why, sizeof P->why, "%s", h->plan.probe_off ? "turned off by the plan" : "no probe program (KF_PROBE)");
    return -1;
  }
  int fd = memfd_create("kf-probe-out", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)size)) return -1;
  h->pout = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (h->pout == MAP_FAILED) {
    h->pout = NULL;
    return -1;
  }
  int to[2], from[2];
  /* Commands on a socket (one message each), so that a memory pool's fd can go with an OPEN; replies on a pipe. */
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, to) || pipe2(from, O_CLOEXEC)) return -1;
  signal(SIGPIPE, SIG_IGN); /* a probe that died (no device) is a failed write, not the harness's end */
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int fds[3] = {to[0], from[1], fd}, tmp[3];
    for (int i = 0; i < 3; i++)
      if ((tmp[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, 10)) < 0) _exit(96);
    for (int i = 0; i < 3; i++)
      if (dup2(tmp[i], i + 3) < 0) _exit(96);
    for (int k = 6; k < 1024; k++) close(k);
    char *argv[] = {(char *)path, NULL};
    char *envp[] = {"PATH=/usr/bin:/bin", "HOME=/tmp", "LC_ALL=C", NULL};
    execve(path, argv, envp);
    _exit(98);
  }
  close(to[0]);
  close(from[1]);
  close(fd);
  P->pid = pid;
  P->cmd_fd = to[1];
  P->reply_fd = from[0];
  return 0;
}

/* Asks worker w for its IPC handle and opens it in the probe as `slot`. 0: the probe reads that worker's data now. */
int kfh_probe_attach(struct harness *h, worker_t *w, int slot) {
  probe_t *P = &h->probe;
  if (P->pid <= 0) return -1;
  kf_reply rep;
  if (worker_call(w, KF_OP_IPC, NULL, 0, h->plan.call_timeout_ms, &rep) || rep.status != 0) {
    snprintf(P->why, sizeof P->why, "the worker gave no IPC handle (status %d)", rep.status);
    return -1;
  }
  kf_probe_cmd c;
  kf_probe_reply r;
  memset(&c, 0, sizeof c);
  c.op = KF_PROBE_OPEN;
  c.slot = slot;
  c.kind = rep.inside_ns == 2 ? 2 : 1;
  memcpy(c.ipc, rep.ipc, sizeof c.ipc);
  int fd = -1;
  if (c.kind == 2) {
    /* The worker's memory pool fd, taken from its process (the sandbox's pid 1) by number: pidfd_getfd. */
    if (w->init_pidfd < 0 || (fd = (int)syscall(SYS_pidfd_getfd, w->init_pidfd, (int)rep.aux_ns, 0)) < 0) {
      snprintf(P->why, sizeof P->why, "could not take the worker's memory pool fd (pidfd_getfd: %s)", strerror(errno));
      return -1;
    }
  }
  int rc = probe_io_fd(h, &c, &r, fd);
  if (fd >= 0) close(fd);
  if (rc || r.status != 0) {
    snprintf(P->why, sizeof P->why, "the probe could not open the worker's device data: %s", r.why);
    return -1;
  }
  P->open[slot] = 1;
  return 0;
}

/* The outputs of case c as probe ranges. */
static void output_ranges(struct harness *h, const case_desc *c, kf_probe_cmd *cmd) {
  cmd->nranges = 0;
  for (int i = 0; i < h->plan.nargs && cmd->nranges < KF_PROBE_MAX_RANGES; i++)
    if (kfh_is_output(h, i)) {
      cmd->off[cmd->nranges] = h->offs[i];
      cmd->bytes[cmd->nranges++] = kfh_bytes_of(h, c, i);
    }
}

/* Right after a timed reply: the keyed sum of the outputs on the device, the key drawn now. 0: answered (the sum and
   key in the probe state, for kfh_probe_copy's check). */
int kfh_probe_sum(struct harness *h, const case_desc *c, int slot) {
  probe_t *P = &h->probe;
  kf_probe_cmd cmd;
  kf_probe_reply r;
  memset(&cmd, 0, sizeof cmd);
  if (getrandom(&cmd.key, sizeof cmd.key, 0) != (ssize_t)sizeof cmd.key) cmd.key = (uint64_t)(now_ms() * 1e6);
  cmd.op = KF_PROBE_SUM;
  cmd.slot = slot;
  output_ranges(h, c, &cmd);
  if (probe_io(h, &cmd, &r) || r.status != 0) {
    snprintf(P->why, sizeof P->why, "the probe failed: %s", r.why);
    return -1;
  }
  P->key = cmd.key;
  P->sum = r.sum;
  return 0;
}

/* After the timed window: the outputs copied into h->pout (slot 0 only) and checked against the timed sum, and the SM
   clock read. 0: the same outputs; 1: they changed after the probe's sum (not finished when the clock stopped);
   -1: the probe failed. */
int kfh_probe_copy(struct harness *h, const case_desc *c, int slot) {
  probe_t *P = &h->probe;
  kf_probe_cmd cmd;
  kf_probe_reply r;
  memset(&cmd, 0, sizeof cmd);
  cmd.op = KF_PROBE_COPY;
  cmd.slot = slot;
  if (slot == 0) output_ranges(h, c, &cmd);
  if (probe_io(h, &cmd, &r) || r.status != 0) {
    snprintf(P->why, sizeof P->why, "the probe's copy failed: %s", r.why);
    return -1;
  }
  P->sm_mhz = r.sm_mhz;
  if (r.max_mhz > P->max_mhz) P->max_mhz = r.max_mhz;
  if (r.sm_mhz > 0 && (P->min_mhz <= 0 || r.sm_mhz < P->min_mhz)) P->min_mhz = r.sm_mhz;
  if (slot != 0) return 0;
  uint64_t s = 0;
  for (int i = 0; i < cmd.nranges; i++) s += kf_probe_sum_host(h->pout, cmd.off[i], cmd.bytes[i], P->key);
  return s == P->sum ? 0 : 1;
}

void kfh_probe_stop(struct harness *h) {
  probe_t *P = &h->probe;
  if (P->pid <= 0) return;
  kf_probe_cmd c;
  memset(&c, 0, sizeof c);
  c.op = KF_PROBE_EXIT;
  if (write(P->cmd_fd, &c, sizeof c) != (ssize_t)sizeof c) kill(P->pid, SIGKILL);
  close(P->cmd_fd);
  close(P->reply_fd);
  waitpid(P->pid, NULL, 0);
  P->pid = -1;
}
