/* A stand-in for c/probe_cuda.cu without a GPU (test/cuda-probe.test.ts): the same wire (commands on a SOCK_SEQPACKET
   socket, fd 3, an OPEN of kind 2 carrying the worker's data fd; replies on fd 4; the harness's copy on fd 5), the
   same keyed sum (kf_probe.h) computed on the host over the worker's data mapped from the fd it was passed. Started as
   a name ending in "_drift", its sums are off by one: what the harness must see when outputs change under the probe;
   ending in "_lowclock", it reads the SM clock at half its top on every call. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kf_probe.h"

int main(int argc, char **argv) {
  (void)argc;
  size_t len = strlen(argv[0]);
  int drift = len >= 6 && !strcmp(argv[0] + len - 6, "_drift");
  int lowclock = len >= 9 && !strcmp(argv[0] + len - 9, "_lowclock");
  struct stat st;
  char *host = NULL, *slots[2] = {NULL, NULL};
  size_t sizes[2] = {0, 0};
  if (fstat(5, &st) == 0) host = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 5, 0);
  for (;;) {
    kf_probe_cmd c;
    char ctrl[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&c, sizeof c};
    struct msghdr m;
    memset(&m, 0, sizeof m);
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = ctrl;
    m.msg_controllen = sizeof ctrl;
    if (recvmsg(3, &m, 0) != (ssize_t)sizeof c) return 0;
    int fd = -1;
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);
    if (h && h->cmsg_type == SCM_RIGHTS) memcpy(&fd, CMSG_DATA(h), sizeof fd);
    kf_probe_reply r;
    memset(&r, 0, sizeof r);
    int slot = c.slot == 1;
    if (c.op == KF_PROBE_EXIT) return 0;
    if (c.op == KF_PROBE_OPEN) {
      struct stat ws;
      if (c.kind != 2 || fd < 0 || fstat(fd, &ws) != 0) {
        r.status = -1;
        snprintf(r.why, sizeof r.why, "fake probe: no fd");
      } else {
        sizes[slot] = (size_t)ws.st_size;
        slots[slot] = mmap(NULL, sizes[slot], PROT_READ, MAP_SHARED, fd, 0);
      }
    } else if (c.op == KF_PROBE_SUM) {
      for (int i = 0; i < c.nranges; i++) r.sum += kf_probe_sum_host(slots[slot], c.off[i], c.bytes[i], c.key);
      r.sum += (uint64_t)drift;
    } else if (c.op == KF_PROBE_COPY) {
      for (int i = 0; i < c.nranges; i++) memcpy(host + c.off[i], slots[slot] + c.off[i], c.bytes[i]);
      r.sm_mhz = lowclock ? 990 : 1900;
      r.max_mhz = 1980;
    }
    if (fd >= 0) close(fd);
    if (write(4, &r, sizeof r) != (ssize_t)sizeof r) return 93;
  }
}
