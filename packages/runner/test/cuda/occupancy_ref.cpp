// The CUDA toolkit's own occupancy calculation (cuda_occupancy.h, host-only: no GPU needed), to check the runner's
// profile/occupancy.ts against. Reads lines of
//   major minor maxThreadsPerSM smemPerSM smemPerBlockOptin reservedSmemPerBlock regs staticSmem barriers blockSize
// and prints the resident blocks per SM of each.
#include <cstdio>
#include <cuda_occupancy.h>

int main() {
  int major, minor, threads, regs, barriers, block;
  long smemSm, optin, reserved, smem;
  while (scanf("%d %d %d %ld %ld %ld %d %ld %d %d", &major, &minor, &threads, &smemSm, &optin, &reserved, &regs, &smem,
               &barriers, &block) == 10) {
    cudaOccDeviceProp p;
    p.computeMajor = major;
    p.computeMinor = minor;
    p.maxThreadsPerBlock = 1024;
    p.maxThreadsPerMultiprocessor = threads;
    p.regsPerBlock = 65536;
    p.regsPerMultiprocessor = 65536;
    p.warpSize = 32;
    p.sharedMemPerBlock = 48 * 1024;
    p.sharedMemPerMultiprocessor = smemSm;
    p.numSms = 132;
    p.sharedMemPerBlockOptin = optin;
    p.reservedSharedMemPerBlock = reserved;
    cudaOccFuncAttributes a;
    a.maxThreadsPerBlock = 1024;
    a.numRegs = regs;
    a.sharedSizeBytes = smem;
    a.numBlockBarriers = barriers;
    cudaOccDeviceState s;
    cudaOccResult r;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, block, 0) != CUDA_OCC_SUCCESS) printf("error\n");
    else printf("%d\n", r.activeBlocksPerMultiprocessor);
  }
  return 0;
}
