// Theoretical occupancy of a kernel: how many of its blocks fit on one SM of the target, and so what fraction of the
// SM's warp slots they fill. The per-arch limits and the rules (registers allocated per warp in units of 256 and per
// sub-partition; shared memory in units of 128 bytes with 1 KiB reserved per block from cc 8.0; the largest shared
// memory carveout) follow the CUDA toolkit's cuda_occupancy.h (CUDA 13.0: cudaOccMaxBlocksPerMultiprocessor,
// cudaOccRegAllocationGranularity, cudaOccSubPartitionsPerMultiprocessor, cudaOccSMemAllocationGranularity,
// cudaOccMaxBlocksPerSMRegsLimit, cudaOccMaxBlocksPerSMSmemLimit, cudaOccMaxBlocksPerSMBlockBarrierLimit; the
// virtual-resource limit of cc 10+ is left out: ptxas does not report a kernel's count) and the CUDA C++ Programming Guide's table
// "Technical Specifications per Compute Capability" (resident warps per SM, shared memory per SM and per block).
import type { CudaOccupancy } from '@kernelforge/sdk';

export interface ArchLimits {
  /** Resident warps per SM (threads per SM / 32). */
  maxWarpsPerSm: number;
  maxBlocksPerSm: number;
  /** 32-bit registers per SM, and per block. */
  regsPerSm: number;
  regsPerBlock: number;
  maxRegsPerThread: number;
  /** Registers are allocated per warp, rounded up to this. */
  regAllocUnit: number;
  subPartitions: number;
  /** Shared memory per SM at the largest carveout, bytes. */
  smemPerSm: number;
  /** Static shared memory a block may have without opt-in (48 KiB), and the opt-in maximum, bytes. */
  smemPerBlock: number;
  smemPerBlockOptin: number;
  smemAllocUnit: number;
  /** Shared memory the driver reserves per block (cc 8.0 on). */
  reservedSmemPerBlock: number;
  maxThreadsPerBlock: number;
  /** From cc 9.0: named barriers per SM, as a multiple of maxBlocksPerSm (a block using b barriers fits
      maxBlocksPerSm * factor / b times); null before (no such limit). */
  barrierFactor: number | null;
}

const KIB = 1024;
const base = {
  regsPerSm: 65536,
  regsPerBlock: 65536,
  maxRegsPerThread: 255,
  regAllocUnit: 256,
  subPartitions: 4,
  smemPerBlock: 48 * KIB,
  maxThreadsPerBlock: 1024,
};
const volta = { ...base, smemAllocUnit: 256, reservedSmemPerBlock: 0, barrierFactor: null };
const ampereOn = { ...base, smemAllocUnit: 128, reservedSmemPerBlock: KIB, barrierFactor: null };

const hopperOn = (warps: number, blocks: number, smemKib: number, barrierFactor: number) => ({
  maxWarpsPerSm: warps,
  maxBlocksPerSm: blocks,
  smemPerSm: smemKib * KIB,
  smemPerBlockOptin: (smemKib - 1) * KIB,
  barrierFactor,
});

/** Keyed by compute capability ("9.0"). */
export const ARCH_LIMITS: Record<string, ArchLimits> = {
  '7.0': { ...volta, maxWarpsPerSm: 64, maxBlocksPerSm: 32, smemPerSm: 96 * KIB, smemPerBlockOptin: 96 * KIB },
  '7.5': { ...volta, maxWarpsPerSm: 32, maxBlocksPerSm: 16, smemPerSm: 64 * KIB, smemPerBlockOptin: 64 * KIB },
  '8.0': { ...ampereOn, maxWarpsPerSm: 64, maxBlocksPerSm: 32, smemPerSm: 164 * KIB, smemPerBlockOptin: 163 * KIB },
  '8.6': { ...ampereOn, maxWarpsPerSm: 48, maxBlocksPerSm: 16, smemPerSm: 100 * KIB, smemPerBlockOptin: 99 * KIB },
  '8.7': { ...ampereOn, maxWarpsPerSm: 48, maxBlocksPerSm: 16, smemPerSm: 164 * KIB, smemPerBlockOptin: 163 * KIB },
  '8.9': { ...ampereOn, maxWarpsPerSm: 48, maxBlocksPerSm: 24, smemPerSm: 100 * KIB, smemPerBlockOptin: 99 * KIB },
  '9.0': { ...ampereOn, ...hopperOn(64, 32, 228, 2) },
  '10.0': { ...ampereOn, ...hopperOn(64, 32, 228, 2) },
  '12.0': { ...ampereOn, ...hopperOn(48, 24, 100, 1) },
};

export const LIMITS_SOURCE =
  "per-arch limits from the CUDA 13.0 toolkit's cuda_occupancy.h and the CUDA C++ Programming Guide's " +
  '"Technical Specifications per Compute Capability"; largest shared memory carveout, no dynamic shared memory';

/** "9.0" for `sm_90`, `sm_90a`, `compute_90`, `sm_100f`; null for what is not an arch. */
export function computeCapabilityOf(arch: string): string | null {
  const m = /^(?:sm|compute)_(\d+?)(\d)[a-z]?$/.exec(arch);
  return m ? `${m[1]}.${m[2]}` : null;
}

export function archLimits(arch: string): ArchLimits | null {
  const cc = computeCapabilityOf(arch);
  return cc ? (ARCH_LIMITS[cc] ?? null) : null;
}

const roundUp = (x: number, unit: number) => Math.ceil(x / unit) * unit;

/** cuda_occupancy.h's calculation for one block size (no dynamic shared memory unless given). */
export function theoreticalOccupancy(
  limits: ArchLimits,
  kernel: { registers: number; shared_bytes: number; barriers?: number | null },
  blockSize: number,
  basis: string,
  dynamicSmem = 0,
): CudaOccupancy {
  const warpsPerBlock = Math.ceil(blockSize / 32);
  const byWarps = blockSize > limits.maxThreadsPerBlock ? 0 : Math.floor(limits.maxWarpsPerSm / warpsPerBlock);
  // Registers: per warp, rounded to the allocation unit; warps fit per sub-partition.
  const regsPerWarp = roundUp(Math.max(kernel.registers, 1) * 32, limits.regAllocUnit);
  const assumedPerBlock = regsPerWarp * roundUp(warpsPerBlock, limits.subPartitions);
  const byRegs =
    kernel.registers > limits.maxRegsPerThread || assumedPerBlock > limits.regsPerBlock
      ? 0
      : Math.floor(
          (Math.floor(limits.regsPerSm / limits.subPartitions / regsPerWarp) * limits.subPartitions) / warpsPerBlock,
        );
  // Shared memory: static + dynamic + the driver's reserve, in allocation units, at the largest carveout.
  const smem = roundUp(kernel.shared_bytes + dynamicSmem + limits.reservedSmemPerBlock, limits.smemAllocUnit);
  const smemLimit = limits.smemPerBlockOptin + limits.reservedSmemPerBlock;
  const bySmem = smem > smemLimit ? 0 : smem > 0 ? Math.floor(limits.smemPerSm / smem) : Number.POSITIVE_INFINITY;
  const candidates: [string, number][] = [
    ['warps', byWarps],
    ['registers', byRegs],
    ['shared memory', bySmem],
    ['blocks', limits.maxBlocksPerSm],
  ];
  // From cc 9.0, the block barriers a kernel uses (ptxas's "used N barriers") are a limit of their own.
  if (limits.barrierFactor !== null && kernel.barriers)
    candidates.push(['barriers', Math.floor((limits.maxBlocksPerSm * limits.barrierFactor) / kernel.barriers)]);
  let blocks = Number.POSITIVE_INFINITY;
  let limiter = 'warps';
  for (const [name, n] of candidates)
    if (n < blocks) {
      blocks = n;
      limiter = name;
    }
  if (blocks === 0) limiter = `none fit (${limiter})`;
  const warps = blocks * warpsPerBlock;
  return {
    block_size: blockSize,
    basis,
    blocks_per_sm: blocks,
    warps_per_sm: warps,
    max_warps_per_sm: limits.maxWarpsPerSm,
    occupancy: Math.min(1, warps / limits.maxWarpsPerSm),
    limiter,
  };
}
