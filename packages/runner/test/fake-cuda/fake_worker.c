/* A stand-in for the cuda worker stub on a machine without a GPU (test/cuda-probe.test.ts): it speaks the stub's
   protocol, with the shared data itself as its "device memory", exported as a memory pool's fd would be (IPC kind 2,
   the fd's number: the harness takes it with pidfd_getfd and hands it to its probe). RUN computes ReLU (x, y, n).
   argv[1] "late": replies first and writes the outputs 20 ms later from a thread (work after the reply); "scribble":
   writes them before the reply, then rewrites y[0] from a thread for 0.5 ms after it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#define KF_STUB_IO
#include "kf_protocol.h"
const int kf_nargs = 3;
const int kf_is_ptr[KF_MAX_ARGS] = {1, 1, 0};

static char *base;
static int64_t xo, yo, n;
static void relu(void) {
  const float *x = (const float *)(base + xo);
  float *y = (float *)(base + yo);
  for (int64_t i = 0; i < n; i++) y[i] = x[i] > 0 ? x[i] : 0.0f;
}
static void *late(void *arg) {
  (void)arg;
  struct timespec ts = {0, 20000000};
  nanosleep(&ts, NULL);
  relu();
  return NULL;
}

/* Started once, asleep between calls: woken by an armed call just before its reply, it rewrites y[0] without pause
   for 0.5 ms (under the cuda workers' 1 ms allowance of cpu after a reply), the stretch in which the harness's probe
   sums the outputs and copies them. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int armed;
static void *scribble(void *arg) {
  (void)arg;
  for (;;) {
    pthread_mutex_lock(&mu);
    while (!armed) pthread_cond_wait(&cv, &mu);
    armed = 0;
    pthread_mutex_unlock(&mu);
    float *y = (float *)(base + yo);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0;; i++) {
      y[0] = (float)i;
      clock_gettime(CLOCK_MONOTONIC, &t);
      if ((t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec) > 500000LL) break;
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  int is_late = argc > 1 && !strcmp(argv[1], "late"), is_scribble = argc > 1 && !strcmp(argv[1], "scribble");
  struct stat st;
  if (fstat(5, &st) != 0) return 90;
  base = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, 5, 0);
  if (base == MAP_FAILED) return 91;
  if (is_scribble) {
    pthread_t t;
    pthread_create(&t, NULL, scribble, NULL);
  }
  kf_reply rep;
  memset(&rep, 0, sizeof rep);
  rep.status = KF_HELLO;
  if (kf_write_full(4, &rep, sizeof rep)) return 92;
  kf_cmd cmd;
  while (kf_read_full(3, &cmd, sizeof cmd) == 0) {
    if (cmd.op == KF_OP_EXIT) break;
    memset(&rep, 0, sizeof rep);
    rep.nonce = cmd.nonce;
    if (cmd.op == KF_OP_IPC) {
      rep.inside_ns = 2;
      rep.aux_ns = 5;
    } else if (cmd.op == KF_OP_RUN) {
      xo = cmd.args[0].off;
      yo = cmd.args[1].off;
      n = cmd.args[2].i64;
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      if (is_late) {
        pthread_t t;
        pthread_create(&t, NULL, late, NULL);
        pthread_detach(t);
      } else {
        relu();
        if (is_scribble) {
          pthread_mutex_lock(&mu);
          armed = 1;
          pthread_cond_signal(&cv);
          pthread_mutex_unlock(&mu);
        }
      }
      clock_gettime(CLOCK_MONOTONIC, &t1);
      rep.inside_ns = (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    }
    if (kf_write_full(4, &rep, sizeof rep)) return 93;
  }
  return 0;
}
