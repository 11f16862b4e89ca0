/* Worker stub for cuda candidates: mirrors the shared data in device memory. PREPARE copies it in and
   flushes L2, RUN times solution() with events after a device-wide synchronize (so work on any stream
   counts), FETCH copies it back. Linked with the candidate, so what it reports is not trusted. */
#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
extern "C" {
#define KF_STUB_IO
#include "kf_protocol.h"
void kf_call_solution(const kf_arg *a);
}

int main(void) {
  const int cmd_fd = 3, reply_fd = 4, shm_fd = 5;
  struct stat st;
  if (fstat(shm_fd, &st) != 0) return 90;
  size_t size = (size_t)st.st_size;
  char *base = (char *)mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
  if (base == (char *)MAP_FAILED) return 91;
  char *dev = NULL, *flush = NULL;
  const size_t flush_bytes = 256u << 20; /* larger than any current GPU's L2 */
  if (cudaMalloc(&dev, size) != cudaSuccess || cudaMalloc(&flush, flush_bytes) != cudaSuccess) return 94;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
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
    if (cmd.op == KF_OP_NOP) {
      /* What a RUN costs around the call itself (events, a device-wide synchronize on an idle device): the
         harness subtracts the fastest NOP from every timed call, so a call's time is its launches and kernels. */
      cudaEventRecord(e0, 0);
      cudaDeviceSynchronize();
      cudaEventRecord(e1, 0);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
    } else if (cmd.op == KF_OP_PREPARE) {
      if (cudaMemcpy(dev, base, size, cudaMemcpyHostToDevice) != cudaSuccess) rep.status = 2;
      cudaMemset(flush, rep.pad++ & 0xff, flush_bytes);
      if (cudaDeviceSynchronize() != cudaSuccess) rep.status = 3;
    } else if (cmd.op == KF_OP_FETCH) {
      cudaDeviceSynchronize();
      if (cudaMemcpy(base, dev, size, cudaMemcpyDeviceToHost) != cudaSuccess) rep.status = 4;
    } else if (cmd.op == KF_OP_RUN) {
      kf_arg a[KF_MAX_ARGS];
      for (int i = 0; i < kf_nargs && i < KF_MAX_ARGS; i++) {
        a[i] = cmd.args[i];
        if (kf_is_ptr[i]) a[i].p = dev + cmd.args[i].off;
      }
      cudaEventRecord(e0, 0);
      kf_call_solution(a);
      cudaDeviceSynchronize(); /* device-wide: kernels the candidate launched on other streams count */
      cudaEventRecord(e1, 0);
      cudaEventSynchronize(e1);
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      rep.inside_ns = (int64_t)(ms * 1e6);
      if (cudaGetLastError() != cudaSuccess) rep.status = 5;
    }
    rep.nonce = nonce;
    if (!kf_same_file(reply_fd, &reply_pipe)) return 95;
    if (kf_write_full(reply_fd, &rep, sizeof rep)) return 93;
  }
  return 0;
}
