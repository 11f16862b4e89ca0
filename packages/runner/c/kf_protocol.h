/* The wire between the trusted harness and a worker process: fixed-size commands and replies on pipes,
   data in a shared memory file. Kept tiny so the worker stub has little surface for a candidate to break. */
#ifndef KF_PROTOCOL_H
#define KF_PROTOCOL_H
#include <stdint.h>

#define KF_MAX_ARGS 16
#define KF_HELLO 0x4b46

/* PREPARE and FETCH move data to and from a device (no-ops on cpu) so that RUN times the call alone. */
enum { KF_OP_NOP = 1, KF_OP_RUN = 2, KF_OP_EXIT = 3, KF_OP_PREPARE = 4, KF_OP_FETCH = 5, KF_OP_IPC = 6 };
/* cuda: PREPARE's args[0].i64 is how long (ns) the device is kept busy after the inputs are copied in, before the L2
   flush and the timed call are queued, so that the host's round trip to RUN leaves no idle gap (c/worker_cuda.cu).
   IPC: the stub answers with a CUDA IPC handle of its device copy of the data (kf_reply.ipc), which the harness's own
   probe process opens (c/probe_cuda.cu, docs/evaluation.md "cuda: the trusted end of a call"). */

/* One argument of the ABI call. Pointer arguments travel as byte offsets into the shared memory. */
typedef union {
  int64_t off;
  int64_t i64;
  int32_t i32;
  float f32;
  double f64;
  void *p;
} kf_arg;

/* Every command carries a fresh random nonce that its reply must echo, and the harness finds the reply pipe empty
   before it sends the next command: a reply written by the candidate (in the worker's process) before the work is
   done cannot stop the clock, since the stub's own reply then arrives too, and the harness rejects it. The stubs
   read and write the pipes with raw system calls, so a candidate that interposes libc's read() or write() does
   not see or swallow them (a forged early reply of this kind was accepted on an H100 at 2.7x before). */
typedef struct {
  int32_t op;
  int32_t nargs;
  uint64_t nonce;
  kf_arg args[KF_MAX_ARGS];
} kf_cmd;

typedef struct {
  int32_t status; /* 0 ok, KF_HELLO on start, otherwise a worker-side error code */
  int32_t pad;
  int64_t inside_ns; /* the worker's own clock around the call (untrusted) */
  uint64_t nonce;    /* the command's, echoed (0 in the hello) */
  int64_t aux_ns;    /* cuda RUN: how long the device sat idle between the flush and the call (events; untrusted) */
  unsigned char ipc[64]; /* cuda IPC: cudaIpcMemHandle_t of the device data (untrusted: the probe checks what it reads) */
} kf_reply;

/* The stubs' pipe I/O: system calls made directly, not through libc's interposable wrappers. */
#if defined(KF_STUB_IO)
#include <errno.h>
#include <stddef.h>
static inline long kf_sys3(long n, long a, long b, long c) {
#if defined(__x86_64__)
  long r;
  __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
  return r;
#elif defined(__aarch64__)
  register long x8 __asm__("x8") = n, x0 __asm__("x0") = a, x1 __asm__("x1") = b, x2 __asm__("x2") = c;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
#else
#error "kf_protocol.h: raw system calls are written for x86-64 and aarch64 only"
#endif
}
#if defined(__x86_64__)
#define KF_SYS_READ 0
#define KF_SYS_WRITE 1
#define KF_SYS_FSTAT 5
#else
#define KF_SYS_READ 63
#define KF_SYS_WRITE 64
#define KF_SYS_FSTAT 80
#endif
#include <sys/stat.h>
/* The reply pipe as the stub found it at start: a candidate that puts something else on fd 4 (dup2 of /dev/null, to
   hide the stub's own reply behind a forged one) makes the stub stop instead of replying into it. */
static inline int kf_same_file(int fd, const struct stat *was) {
  struct stat now;
  if (kf_sys3(KF_SYS_FSTAT, fd, (long)&now, 0) != 0) return 0;
  return now.st_dev == was->st_dev && now.st_ino == was->st_ino;
}
static inline int kf_read_full(int fd, void *buf, size_t n) {
  char *p = (char *)buf;
  while (n > 0) {
    long r = kf_sys3(KF_SYS_READ, fd, (long)p, (long)n);
    if (r == -EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}
static inline int kf_write_full(int fd, const void *buf, size_t n) {
  const char *p = (const char *)buf;
  while (n > 0) {
    long r = kf_sys3(KF_SYS_WRITE, fd, (long)p, (long)n);
    if (r == -EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}
#endif

/* Per signature: which arguments are pointers (generated glue defines it). */
extern const int kf_nargs;
extern const int kf_is_ptr[KF_MAX_ARGS];

#endif
