/* Hostile (issue 32): rewrites the worker stub's cudaEventElapsedTime in its own process (mprotect, then a jump to
   its own function), which asks the driver for the true figure and reports 85% of it: an honest ReLU that claims
   1.18x. Expected: rejected, or a time within the honest kernel's interval (the harness's own clock, ending at its
   probe's answer, runs the whole call). Without the probe (KFORGE_CUDA_PROBE=off): accepted at about 1.18x. x86-64. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef CUresult (*elapsed_fn)(float *, CUevent, CUevent);
static elapsed_fn real_elapsed;

static cudaError_t fake_elapsed(float *ms, cudaEvent_t a, cudaEvent_t b) {
  if (!real_elapsed || real_elapsed(ms, (CUevent)a, (CUevent)b) != CUDA_SUCCESS) return cudaErrorUnknown;
  *ms *= 0.85f;
  return cudaSuccess;
}

static void patch(void *target, void *to) {
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t start = (uintptr_t)target & ~(uintptr_t)(page - 1);
  if (mprotect((void *)start, (size_t)page * 2, PROT_READ | PROT_WRITE | PROT_EXEC)) return;
  unsigned char code[12] = {0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xe0};
  memcpy(code + 2, &to, 8);
  memcpy(target, code, sizeof code);
}

__global__ void relu(const float* x, float* y, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

static int patched;
extern "C" void solution(const float* x, float* y, int64_t n) {
#if defined(__x86_64__)
  if (!patched) {
    /* The driver's own entry point, fetched before the runtime's function is overwritten. */
    cudaDriverEntryPointQueryResult q;
    cudaGetDriverEntryPointByVersion("cuEventElapsedTime", (void **)&real_elapsed, 12000, cudaEnableDefault, &q);
    if (real_elapsed) patch((void *)&cudaEventElapsedTime, (void *)&fake_elapsed);
    patched = 1;
  }
#endif
  relu<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
}
