/* Hostile (issue 32): answers the harness's probe from arrays of its own. It rewrites the stub's cudaIpcGetMemHandle
   and cudaMemPoolExportPointer (one of them is called once, at start, for the harness's probe) to export a mirror of
   the device data that it owns, not the stub's (from the same memory pool, on the pool path), and the stub's
   cudaDeviceSynchronize as rewrite_sync.cu does: the kernel runs on a non-blocking stream after the reply, and its
   outputs reach the mirror (what the probe reads, sums and copies out) by a copy queued behind it. Expected: rejected
   (the probe's sum, taken right after the reply, does not match the outputs copied after it), incorrect, or a time
   within the honest kernel's interval. x86-64 only. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static cudaStream_t side;
static volatile int skip_next;
static char *stub_dev, *mirror;

typedef CUresult (*ipc_fn)(CUipcMemHandle *, CUdeviceptr);
static ipc_fn real_ipc;
typedef CUresult (*export_fn)(CUmemPoolPtrExportData *, CUdeviceptr);
typedef CUresult (*attr_fn)(void *, CUpointer_attribute, CUdeviceptr);
static export_fn real_export;
static attr_fn real_attr;

static cudaError_t fake_sync(void) {
  if (skip_next) {
    skip_next = 0;
    return cudaSuccess;
  }
  if (side) cudaStreamSynchronize(side);
  cudaStreamSynchronize(0);
  return cudaSuccess;
}

/* The stub asks for a handle of its device data: it gets one of the mirror, as large as the shared data (fd 5). */
static cudaError_t fake_ipc(cudaIpcMemHandle_t *h, void *ptr) {
  struct stat st;
  if (fstat(5, &st) != 0 || !real_ipc) return cudaErrorUnknown;
  stub_dev = (char *)ptr;
  if (!mirror && cudaMalloc(&mirror, (size_t)st.st_size) != cudaSuccess) return cudaErrorUnknown;
  return real_ipc((CUipcMemHandle *)h, (CUdeviceptr)mirror) == CUDA_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

/* The pool path: the mirror comes from the stub's own pool, and its export data is what the harness's probe gets. */
static cudaError_t fake_export(cudaMemPoolPtrExportData *data, void *ptr) {
  struct stat st;
  CUmemoryPool pool = NULL;
  if (fstat(5, &st) != 0 || !real_export || !real_attr) return cudaErrorUnknown;
  stub_dev = (char *)ptr;
  if (real_attr(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, (CUdeviceptr)ptr) != CUDA_SUCCESS || !pool)
    return cudaErrorUnknown;
  if (!mirror) {
    if (cudaMallocFromPoolAsync((void **)&mirror, (size_t)st.st_size, (cudaMemPool_t)pool, 0) != cudaSuccess)
      return cudaErrorUnknown;
    cudaStreamSynchronize(0);
  }
  return real_export((CUmemPoolPtrExportData *)data, (CUdeviceptr)mirror) == CUDA_SUCCESS ? cudaSuccess
                                                                                           : cudaErrorUnknown;
}

static void patch(void *target, void *to) {
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t start = (uintptr_t)target & ~(uintptr_t)(page - 1);
  if (mprotect((void *)start, (size_t)page * 2, PROT_READ | PROT_WRITE | PROT_EXEC)) return;
  unsigned char code[12] = {0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0};
  memcpy(code + 2, &to, 8);
  memcpy(target, code, sizeof code);
}

__attribute__((constructor)) static void take_over(void) {
#if defined(__x86_64__)
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuIpcGetMemHandle", (void **)&real_ipc, 12000, cudaEnableDefault, &q) ==
          cudaSuccess &&
      real_ipc)
    patch((void *)&cudaIpcGetMemHandle, (void *)&fake_ipc);
  if (cudaGetDriverEntryPointByVersion("cuMemPoolExportPointer", (void **)&real_export, 12000, cudaEnableDefault, &q) ==
          cudaSuccess &&
      cudaGetDriverEntryPointByVersion("cuPointerGetAttribute", (void **)&real_attr, 12000, cudaEnableDefault, &q) ==
          cudaSuccess &&
      real_export && real_attr)
    patch((void *)&cudaMemPoolExportPointer, (void *)&fake_export);
  patch((void *)&cudaDeviceSynchronize, (void *)&fake_sync);
#endif
}

__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

extern "C" void solution(const float* x, float* y, int64_t n) {
  if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  relu<<<(unsigned)((n + 255) / 256), 256, 0, side>>>(x, y, n);
  if (mirror && stub_dev)
    cudaMemcpyAsync(mirror + ((char *)y - stub_dev), y, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice, side);
  skip_next = 1;
}
