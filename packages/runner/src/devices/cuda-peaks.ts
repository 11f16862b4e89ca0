// A GPU's peaks measured on the device when the runner starts (issue 32 item 3): c/peaks_cuda.cu, built once by
// content hash with nvcc, run once per process and device kind (cached like the cpu's), its figures the device's
// peaks; the datasheet table (cuda.ts) only where it cannot run. Tensor-core throughput is not an fp32 peak and is not
// measured: the fp32 ceiling is the larger of the measured FMA rate and SMs x fp32 lanes x 2 x the top SM clock.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DevicePeaks } from '@kernelforge/sdk';
import { contentHash } from '../internal/hash.js';
import { cSourceDir } from '../internal/paths.js';

/** What c/peaks_cuda.cu prints. */
export interface CudaPeaksOutput {
  bandwidth_gbps: number;
  fp32_gflops: number;
  theoretical_fp32_gflops: number;
  sms: number;
  l2_bytes: number;
  clock_mhz: number;
  compute_capability: string;
  runs: number;
}

/** The peaks program's JSON line, or null when it is not one (a crash, a partial line). */
export function parseCudaPeaks(text: string): CudaPeaksOutput | null {
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.startsWith('{'));
  if (!line) return null;
  try {
    const o = JSON.parse(line) as Partial<CudaPeaksOutput>;
    const ok = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x > 0;
    if (!ok(o.bandwidth_gbps) || !ok(o.fp32_gflops)) return null;
    return {
      bandwidth_gbps: o.bandwidth_gbps as number,
      fp32_gflops: o.fp32_gflops as number,
      theoretical_fp32_gflops: ok(o.theoretical_fp32_gflops) ? (o.theoretical_fp32_gflops as number) : 0,
      sms: o.sms ?? 0,
      l2_bytes: o.l2_bytes ?? 0,
      clock_mhz: o.clock_mhz ?? 0,
      compute_capability: o.compute_capability ?? '',
      runs: o.runs ?? 1,
    };
  } catch {
    return null;
  }
}

/** The device's peaks from a run (`source: measured`); the table's figures are kept in the basis text. */
export function cudaPeaksFrom(out: CudaPeaksOutput, table: DevicePeaks | undefined, at = new Date()): DevicePeaks {
  const tableText =
    table?.source === 'table' ? `; datasheet ${table.bandwidth_gbps} GB/s, ${table.fp32_gflops} GFLOP/s fp32` : '';
  return {
    bandwidth_gbps: out.bandwidth_gbps,
    fp32_gflops: out.fp32_gflops,
    source: 'measured',
    ...(out.theoretical_fp32_gflops > 0
      ? {
          theoretical_fp32_gflops: out.theoretical_fp32_gflops,
          theoretical_basis: `${out.sms} SMs x fp32 lanes x 2 x ${out.clock_mhz} MHz (compute capability ${out.compute_capability}; tensor cores not counted)${tableText}`,
        }
      : {}),
    measurement: {
      measured_at: at.toISOString(),
      runs: out.runs,
      code_path: `cuda sm_${out.compute_capability.replace('.', '')}`,
      bandwidth_method: `device copy kernel (16-byte loads and stores), 2 buffers of at least 32x the ${out.l2_bytes}-byte L2, best of ${out.runs}`,
      flops_method: `8 independent FMA chains per thread, ${out.sms} SMs x 16 blocks of 512 threads, best of ${out.runs}`,
      clock_ghz: out.clock_mhz / 1000,
    },
  };
}

const cache = new Map<string, DevicePeaks>();

/** Builds c/peaks_cuda.cu for `arch` (e.g. sm_90) once by content hash; the binary's path. */
export function cudaPeaksBinary(workDir: string, arch: string): string {
  mkdirSync(workDir, { recursive: true });
  const src = join(cSourceDir(), 'peaks_cuda.cu');
  const bin = join(workDir, `peaks-cuda-${arch}-${contentHash(readFileSync(src, 'utf8'))}`);
  if (!existsSync(bin))
    execFileSync('nvcc', ['-O3', `-arch=${arch}`, '-o', bin, src], {
      timeout: 180_000,
      stdio: 'pipe',
      // Where the runner's own cuda builds look for it (backends/c-abi/harness/build.ts) as well as the PATH.
      env: { ...process.env, PATH: `/usr/local/cuda/bin:${process.env.PATH ?? '/usr/bin:/bin'}` },
    });
  return bin;
}

/**
 * The peaks of the GPU kind `id` (compute capability `cc`), measured once per process; the table's (`table`) when
 * the program cannot be built or run (no nvcc, no device), with why in `error`.
 */
export function measureCudaPeaks(
  id: string,
  cc: string,
  table: DevicePeaks,
  workDir = join(tmpdir(), 'kforge-runner'),
): { peaks: DevicePeaks; error?: string } {
  const hit = cache.get(id);
  if (hit) return { peaks: hit };
  try {
    const bin = cudaPeaksBinary(workDir, `sm_${cc.replace('.', '')}`);
    const out = parseCudaPeaks(execFileSync(bin, [], { encoding: 'utf8', timeout: 120_000, stdio: 'pipe' }));
    if (!out) return { peaks: table, error: 'the peaks program printed no figures' };
    const peaks = cudaPeaksFrom(out, table);
    cache.set(id, peaks);
    return { peaks };
  } catch (e) {
    return { peaks: table, error: String((e as Error).message).split('\n')[0] ?? 'failed' };
  }
}
