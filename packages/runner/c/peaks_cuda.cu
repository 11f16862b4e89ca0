/* A GPU's peaks measured on the device (issue 32 item 3), run once when the runner starts (src/devices/cuda-peaks.ts):
   bandwidth from a copy kernel (16-byte loads and stores, grid-stride, buffers far past L2), fp32 from independent
   FMA chains in registers; each the best of several runs timed by events. Also what the device says of itself (SMs,
   L2, top SM clock) and the theoretical fp32 figure SMs x fp32 lanes x 2 x top clock. Tensor cores are not fp32 and
   are not measured here. Prints one JSON object; exit 2 without a device. usage: peaks_cuda [bytes_per_buffer] */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void kf_copy(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}

#define FMA_ITERS 2048
__global__ void kf_fma(float *out, float s) {
  float x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;
  const float m = 0.999f;
  for (int i = 0; i < FMA_ITERS; i++) {
    x0 = fmaf(x0, m, s); x1 = fmaf(x1, m, s); x2 = fmaf(x2, m, s); x3 = fmaf(x3, m, s);
    x4 = fmaf(x4, m, s); x5 = fmaf(x5, m, s); x6 = fmaf(x6, m, s); x7 = fmaf(x7, m, s);
  }
  float r = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
  if (r == 1234.5f) out[0] = r; /* never true in practice: keeps the chains alive */
}

/* fp32 lanes per SM by compute capability (CUDA programming guide, arithmetic instructions table). */
static int fp32_lanes(int major, int minor) {
  if (major == 8 && minor == 0) return 64;
  if (major >= 8) return 128;
  if (major == 7) return 64;
  return 128;
}

int main(int argc, char **argv) {
  int dev = 0, sms = 0, l2 = 0, clock_khz = 0, major = 0, minor = 0;
  if (cudaSetDevice(dev) != cudaSuccess || cudaFree(0) != cudaSuccess) {
    fprintf(stderr, "no cuda device\n");
    return 2;
  }
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev);
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
  size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)512 << 20;
  if (bytes < 32 * (size_t)l2) bytes = 32 * (size_t)l2;
  bytes &= ~(size_t)15;
  float4 *a = NULL, *b = NULL;
  float *out = NULL;
  if (cudaMalloc(&a, bytes) || cudaMalloc(&b, bytes) || cudaMalloc(&out, 4)) return 3;
  cudaMemset(a, 1, bytes);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const int runs = 10;
  float best_copy = 1e30f, best_fma = 1e30f, ms;
  int copy_blocks = sms * 8, fma_blocks = sms * 16;
  for (int r = 0; r < runs + 2; r++) { /* the first two warm the clocks up and are not counted */
    cudaEventRecord(e0);
    kf_copy<<<copy_blocks, 512>>>(a, b, bytes / 16);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 2 && ms < best_copy) best_copy = ms;
  }
  for (int r = 0; r < runs + 2; r++) {
    cudaEventRecord(e0);
    kf_fma<<<fma_blocks, 512>>>(out, 1e-3f);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 2 && ms < best_fma) best_fma = ms;
  }
  if (cudaDeviceSynchronize() != cudaSuccess) return 4;
  double gbps = 2.0 * (double)bytes / (best_copy * 1e-3) / 1e9;
  double flops = 2.0 * 8.0 * FMA_ITERS * (double)fma_blocks * 512.0;
  double gflops = flops / (best_fma * 1e-3) / 1e9;
  double theoretical = (double)sms * fp32_lanes(major, minor) * 2.0 * clock_khz * 1e3 / 1e9;
  printf("{\"bandwidth_gbps\":%.1f,\"fp32_gflops\":%.1f,\"theoretical_fp32_gflops\":%.1f,\"sms\":%d,\"l2_bytes\":%d,"
         "\"clock_mhz\":%.0f,\"compute_capability\":\"%d.%d\",\"buffer_bytes\":%zu,\"runs\":%d}\n",
         gbps, gflops, theoretical, sms, l2, clock_khz / 1e3, major, minor, bytes, runs);
  return 0;
}
