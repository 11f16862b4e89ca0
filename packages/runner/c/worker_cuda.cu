/* Worker stub for cuda candidates: mirrors the shared data in device memory. PREPARE copies it in, then queues,
   without waiting, a busy kernel that keeps the device working while the harness's RUN is on its way, the reset of the
   persisting-L2 window and a flush of twice the device's L2; RUN queues the start event, the call and the end event
   right behind them (no host synchronize in between, as Triton's do_bench times), then synchronizes the whole device
   before it replies. FETCH copies the data back (only without the harness's probe, which copies the outputs itself).
   IPC hands the harness a CUDA IPC handle of the device data for its probe. Linked with the candidate, so what it
   reports is not trusted: the probe's keyed checksum, in a process of the harness's own, ends the trusted time. */
#include <cuda_runtime.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
extern "C" {
#define KF_STUB_IO
#include "kf_protocol.h"
void kf_call_solution(const kf_arg *a);
}

/* Keeps every SM busy for about `ns` of the device's global timer: the GPU is working, at its clocks, when the flush
   and the call arrive, however long the host took to send RUN. */
__global__ void kf_busy(long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while ((long long)(t - t0) < ns);
}

int main(void) {
  const int cmd_fd = 3, reply_fd = 4, shm_fd = 5;
  struct stat st;
  if (fstat(shm_fd, &st) != 0) return 90;
  size_t size = (size_t)st.st_size;
  char *base = (char *)mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
  if (base == (char *)MAP_FAILED) return 91;
  char *dev = NULL, *flush = NULL;
  int device = 0, l2 = 0, sms = 1;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  /* Twice the L2 the device reports (pygpubench's clear_l2), at least 16 MiB. */
  const size_t flush_bytes = l2 > (8 << 20) ? 2 * (size_t)l2 : (size_t)16 << 20;
  /* The device data comes from a memory pool that exports a POSIX file descriptor where the device supports one: the
     harness takes that fd (pidfd_getfd) and hands it to its probe, which works across the sandbox's namespaces; a
     legacy IPC handle (cudaIpcGetMemHandle) otherwise. */
  int handle_types = 0, pool_fd = -1;
  cudaMemPool_t pool = NULL;
  cudaDeviceGetAttribute(&handle_types, cudaDevAttrMemoryPoolSupportedHandleTypes, device);
  if (handle_types & cudaMemHandleTypePosixFileDescriptor) {
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    if (cudaMemPoolCreate(&pool, &props) != cudaSuccess ||
        cudaMallocFromPoolAsync((void **)&dev, size, pool, 0) != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess ||
        cudaMemPoolExportToShareableHandle(&pool_fd, pool, cudaMemHandleTypePosixFileDescriptor, 0) != cudaSuccess) {
      cudaGetLastError();
      if (dev) cudaFreeAsync(dev, 0);
      dev = NULL;
      pool = NULL;
      pool_fd = -1;
    }
  }
  if ((!dev && cudaMalloc(&dev, size) != cudaSuccess) || cudaMalloc(&flush, flush_bytes) != cudaSuccess) return 94;
  cudaEvent_t e0, e1, ef;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventCreate(&ef);
  kf_reply rep;
  memset(&rep, 0, sizeof rep);
  rep.status = KF_HELLO;
  struct stat reply_pipe;
  if (kf_sys3(KF_SYS_FSTAT, reply_fd, (long)&reply_pipe, 0) != 0) return 92;
  if (kf_write_full(reply_fd, &rep, sizeof rep)) return 92;
  kf_cmd cmd;
  int flush_byte = 0;
  while (kf_read_full(cmd_fd, &cmd, sizeof cmd) == 0) {
    if (cmd.op == KF_OP_EXIT) break;
    rep.status = 0;
    rep.inside_ns = rep.aux_ns = 0;
    /* Held apart from the command, which the candidate's call can reach through its arguments' neighbourhood. */
    const uint64_t nonce = cmd.nonce;
    *(volatile uint64_t *)&cmd.nonce = 0;
    if (cmd.op == KF_OP_NOP) {
      /* What a RUN costs around the call itself (events, a device-wide synchronize on an idle device). */
      cudaEventRecord(e0, 0);
      cudaEventRecord(e1, 0);
      cudaDeviceSynchronize();
      float ms = 0;
      cudaEventElapsedTime(&ms, e0, e1);
    } else if (cmd.op == KF_OP_IPC) {
      /* inside_ns: 1 a legacy handle in ipc; 2 the pool's fd (its number in aux_ns) and the pointer's export data. */
      if (pool && pool_fd >= 0) {
        cudaMemPoolPtrExportData data;
        if (cudaMemPoolExportPointer(&data, dev) != cudaSuccess) rep.status = 6;
        memcpy(rep.ipc, &data, sizeof data < sizeof rep.ipc ? sizeof data : sizeof rep.ipc);
        rep.inside_ns = 2;
        rep.aux_ns = pool_fd;
      } else {
        cudaIpcMemHandle_t hd;
        if (cudaIpcGetMemHandle(&hd, dev) != cudaSuccess) rep.status = 6;
        else memcpy(rep.ipc, &hd, sizeof hd < sizeof rep.ipc ? sizeof hd : sizeof rep.ipc);
        rep.inside_ns = 1;
      }
    } else if (cmd.op == KF_OP_PREPARE) {
      if (cudaMemcpy(dev, base, size, cudaMemcpyHostToDevice) != cudaSuccess) rep.status = 2;
      if (cudaDeviceSynchronize() != cudaSuccess) rep.status = 3;
      /* Queued, not waited for: the busy kernel covers the round trip to RUN, then the persisting-L2 window is reset
         (it survives a flush) and L2 flushed; the RUN's start event goes in right behind. */
      long long busy_ns = cmd.args[0].i64 > 0 && cmd.args[0].i64 < 100000000 ? cmd.args[0].i64 : 0;
      if (busy_ns > 0) kf_busy<<<sms, 32>>>(busy_ns);
      cudaCtxResetPersistingL2Cache();
      cudaMemsetAsync(flush, flush_byte++ & 0xff, flush_bytes, 0);
      cudaEventRecord(ef, 0);
      if (cudaGetLastError() != cudaSuccess) rep.status = 3;
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
      cudaEventRecord(e1, 0);
      cudaDeviceSynchronize(); /* device-wide: kernels the candidate launched on other streams finish before the reply */
      float ms = 0, idle = 0;
      cudaEventElapsedTime(&ms, e0, e1);
      cudaEventElapsedTime(&idle, ef, e0);
      rep.inside_ns = (int64_t)((double)ms * 1e6);
      rep.aux_ns = (int64_t)((double)idle * 1e6);
      if (cudaGetLastError() != cudaSuccess) rep.status = 5;
    }
    rep.nonce = nonce;
    if (!kf_same_file(reply_fd, &reply_pipe)) return 95;
    if (kf_write_full(reply_fd, &rep, sizeof rep)) return 93;
  }
  return 0;
}
