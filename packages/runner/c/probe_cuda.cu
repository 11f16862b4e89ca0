/* The harness's trusted probe (cuda): a process of the harness's own, started by it outside the workers' sandboxes and
   never linked with candidate code. It opens each cuda worker's device data through the CUDA IPC handle the worker's
   stub exported, and on the harness's command: sums ranges of it under a key (kf_probe.h), copies ranges of it into
   the harness's memfd, and reads the SM clock (NVML, loaded at run time; none: 0). fds: 3 commands, 4 replies,
   5 the harness's memfd. usage: kf_probe */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "kf_probe.h"

__global__ void kf_probe_sum(const uint32_t *w, uint64_t first, uint64_t n, uint64_t key, unsigned long long *out) {
  uint64_t s = 0;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x)
    s += kf_probe_mix(key, first + i, w[i]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, (unsigned long long)s);
}

/* NVML through dlopen: the probe builds and runs where libnvidia-ml is missing (no clock then). */
typedef int (*nvml_init_t)(void);
typedef int (*nvml_by_bus_t)(const char *, void **);
typedef int (*nvml_clock_t)(void *, int, unsigned *);
static struct {
  void *dev;
  nvml_clock_t clock, max_clock;
} nvml;

static void nvml_open(int device) {
  void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW);
  if (!lib) return;
  nvml_init_t init = (nvml_init_t)dlsym(lib, "nvmlInit_v2");
  nvml_by_bus_t by_bus = (nvml_by_bus_t)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
  nvml.clock = (nvml_clock_t)dlsym(lib, "nvmlDeviceGetClockInfo");
  nvml.max_clock = (nvml_clock_t)dlsym(lib, "nvmlDeviceGetMaxClockInfo");
  char bus[64];
  if (!init || !by_bus || !nvml.clock || !nvml.max_clock || init() != 0) return;
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, device) != cudaSuccess || by_bus(bus, &nvml.dev) != 0) nvml.dev = NULL;
}

static void read_clock(kf_probe_reply *r) {
  unsigned mhz = 0, max = 0;
  enum { NVML_CLOCK_SM = 1 };
  if (!nvml.dev) return;
  if (nvml.clock(nvml.dev, NVML_CLOCK_SM, &mhz) == 0) r->sm_mhz = mhz;
  if (nvml.max_clock(nvml.dev, NVML_CLOCK_SM, &max) == 0) r->max_mhz = max;
}

static int io_full(int fd, void *buf, size_t n, int wr) {
  char *p = (char *)buf;
  while (n > 0) {
    ssize_t r = wr ? write(fd, p, n) : read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    n -= (size_t)r;
  }
  return 0;
}

/* One command from fd 3 (a SOCK_SEQPACKET socket: one message each), and the fd it carries, if any (else -1). */
static int read_cmd(kf_probe_cmd *c, int *fd) {
  *fd = -1;
  char ctrl[CMSG_SPACE(sizeof(int))];
  struct iovec iov = {c, sizeof *c};
  struct msghdr m;
  memset(&m, 0, sizeof m);
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctrl;
  m.msg_controllen = sizeof ctrl;
  ssize_t r;
  do r = recvmsg(3, &m, MSG_CMSG_CLOEXEC);
  while (r < 0 && errno == EINTR);
  if (r != (ssize_t)sizeof *c) return -1;
  struct cmsghdr *h = CMSG_FIRSTHDR(&m);
  if (h && h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS) memcpy(fd, CMSG_DATA(h), sizeof(int));
  return 0;
}

int main(void) {
  struct stat st;
  char *host = NULL;
  size_t host_size = 0;
  if (fstat(5, &st) == 0 && st.st_size > 0) {
    host_size = (size_t)st.st_size;
    host = (char *)mmap(NULL, host_size, PROT_READ | PROT_WRITE, MAP_SHARED, 5, 0);
    if (host == (char *)MAP_FAILED) host = NULL;
  }
  int device = 0;
  cudaSetDevice(device);
  unsigned long long *sum = NULL;
  cudaStream_t s;
  int sms = 1;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (cudaMalloc(&sum, sizeof *sum) != cudaSuccess || cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess)
    return 94;
  nvml_open(device);
  char *slots[2] = {NULL, NULL};
  kf_probe_cmd c;
  int passed = -1;
  while (read_cmd(&c, &passed) == 0) {
    kf_probe_reply r;
    memset(&r, 0, sizeof r);
    if (c.op == KF_PROBE_EXIT) break;
    int slot = c.slot == 1 ? 1 : 0, n = c.nranges < 0 ? 0 : c.nranges > KF_PROBE_MAX_RANGES ? KF_PROBE_MAX_RANGES : c.nranges;
    cudaError_t e = cudaSuccess;
    if (c.op == KF_PROBE_OPEN && c.kind == 2) {
      /* A memory pool's fd (passed with the command) and the pointer's export data. */
      cudaMemPool_t pool = NULL;
      slots[slot] = NULL;
      if (passed < 0) {
        e = cudaErrorInvalidValue;
        snprintf(r.why, sizeof r.why, "no pool fd came with the command");
      } else if ((e = cudaMemPoolImportFromShareableHandle(&pool, (void *)(intptr_t)passed,
                                                           cudaMemHandleTypePosixFileDescriptor, 0)) == cudaSuccess) {
        cudaMemAccessDesc acc;
        memset(&acc, 0, sizeof acc);
        acc.location.type = cudaMemLocationTypeDevice;
        acc.location.id = device;
        acc.flags = cudaMemAccessFlagsProtReadWrite;
        if (cudaMemPoolSetAccess(pool, &acc, 1) != cudaSuccess) cudaGetLastError(); /* the pool's own device: default */
        cudaMemPoolPtrExportData data;
        memcpy(&data, c.ipc, sizeof data);
        e = cudaMemPoolImportPointer((void **)&slots[slot], pool, &data);
      }
    } else if (c.op == KF_PROBE_OPEN) {
      cudaIpcMemHandle_t hd;
      memcpy(&hd, c.ipc, sizeof hd);
      if (slots[slot]) cudaIpcCloseMemHandle(slots[slot]);
      slots[slot] = NULL;
      e = cudaIpcOpenMemHandle((void **)&slots[slot], hd, cudaIpcMemLazyEnablePeerAccess);
    } else if (!slots[slot]) {
      e = cudaErrorInvalidValue;
      snprintf(r.why, sizeof r.why, "no device data opened");
    } else if (c.op == KF_PROBE_SUM) {
      cudaMemsetAsync(sum, 0, sizeof *sum, s);
      for (int i = 0; i < n; i++) {
        uint64_t words = c.bytes[i] / 4, blocks = (words + 255) / 256;
        if (blocks > (uint64_t)sms * 8) blocks = (uint64_t)sms * 8;
        if (words) kf_probe_sum<<<(unsigned)blocks, 256, 0, s>>>((const uint32_t *)(slots[slot] + c.off[i]), c.off[i] / 4, words, c.key, sum);
      }
      unsigned long long got = 0;
      cudaMemcpyAsync(&got, sum, sizeof got, cudaMemcpyDeviceToHost, s);
      e = cudaStreamSynchronize(s);
      r.sum = got;
    } else if (c.op == KF_PROBE_COPY) {
      for (int i = 0; i < n && e == cudaSuccess; i++) {
        if (!host || c.off[i] + c.bytes[i] > host_size) {
          e = cudaErrorInvalidValue;
          snprintf(r.why, sizeof r.why, "a range outside the harness's copy");
          break;
        }
        e = cudaMemcpy(host + c.off[i], slots[slot] + c.off[i], c.bytes[i], cudaMemcpyDeviceToHost);
      }
      read_clock(&r);
    }
    if (e != cudaSuccess) {
      r.status = (int)e;
      if (!r.why[0]) snprintf(r.why, sizeof r.why, "%s", cudaGetErrorString(e));
      cudaGetLastError();
    }
    /* The fd of a pool opened is kept for the probe's life (whether the driver needs it after the import is not
       stated); any other is closed. */
    if (passed >= 0 && !(c.op == KF_PROBE_OPEN && e == cudaSuccess)) close(passed);
    if (io_full(4, &r, sizeof r, 1)) return 93;
  }
  return 0;
}
