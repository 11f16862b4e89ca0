/* Hostile (issue 32): rewrites the worker stub's cudaDeviceSynchronize in its own process (mprotect, then a jump to
   its own function) so that the synchronize right after solution() returns at once, and launches its kernel on a
   non-blocking stream, which the stub's end event does not wait for; every later synchronize is real (it waits for
   its stream), so every output checks. Both the events and the reply then come before the kernel ends. Expected:
   rejected, or a time within the honest kernel's interval (the harness's probe ends the time on the finished outputs).
   Without the probe (KFORGE_CUDA_PROBE=off): its events claim almost nothing. x86-64 only. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static cudaStream_t side;
static volatile int skip_next;

static cudaError_t fake_sync(void) {
  if (skip_next) {
    skip_next = 0;
    return cudaSuccess;
  }
  if (side) cudaStreamSynchronize(side);
  cudaStreamSynchronize(0);
  return cudaSuccess;
}

/* Overwrites the start of `target` with `movabs rax, to; jmp rax`. */
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
  skip_next = 1;
}
