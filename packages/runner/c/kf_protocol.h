/* The wire between the trusted harness and a worker process: fixed-size commands and replies on pipes,
   data in a shared memory file. Kept tiny so the worker stub has little surface for a candidate to break. */
#ifndef KF_PROTOCOL_H
#define KF_PROTOCOL_H
#include <stdint.h>

#define KF_MAX_ARGS 16
#define KF_HELLO 0x4b46

/* PREPARE and FETCH move data to and from a device (no-ops on cpu) so that RUN times the call alone. */
enum { KF_OP_NOP = 1, KF_OP_RUN = 2, KF_OP_EXIT = 3, KF_OP_PREPARE = 4, KF_OP_FETCH = 5 };

/* One argument of the ABI call. Pointer arguments travel as byte offsets into the shared memory. */
typedef union {
  int64_t off;
  int64_t i64;
  int32_t i32;
  float f32;
  double f64;
  void *p;
} kf_arg;

typedef struct {
  int32_t op;
  int32_t nargs;
  kf_arg args[KF_MAX_ARGS];
} kf_cmd;

typedef struct {
  int32_t status; /* 0 ok, KF_HELLO on start, otherwise a worker-side error code */
  int32_t pad;
  int64_t inside_ns; /* the worker's own clock around the call (untrusted) */
} kf_reply;

/* Per signature: which arguments are pointers (generated glue defines it). */
extern const int kf_nargs;
extern const int kf_is_ptr[KF_MAX_ARGS];

#endif
