// cuda devices seen by nvidia-smi, with peaks measured on the device at start (cuda-peaks.ts); a table by model
// (datasheet figures, fp32 non-tensor) is the fallback.
import { execFileSync } from 'node:child_process';
import type { Device } from '@kernelforge/sdk';
import { measureCudaPeaks } from './cuda-peaks.js';

interface GpuFacts {
  match: RegExp;
  id: string;
  bandwidth_gbps: number;
  fp32_gflops: number;
  computeCapability: string;
}

export const GPU_TABLE: readonly GpuFacts[] = [
  { match: /H200/i, id: 'H200', bandwidth_gbps: 4800, fp32_gflops: 67_000, computeCapability: '9.0' },
  { match: /H100.*PCIe/i, id: 'H100', bandwidth_gbps: 2000, fp32_gflops: 51_000, computeCapability: '9.0' },
  { match: /H100/i, id: 'H100', bandwidth_gbps: 3350, fp32_gflops: 67_000, computeCapability: '9.0' },
  { match: /A100.*80/i, id: 'A100', bandwidth_gbps: 2039, fp32_gflops: 19_500, computeCapability: '8.0' },
  { match: /A100/i, id: 'A100', bandwidth_gbps: 1555, fp32_gflops: 19_500, computeCapability: '8.0' },
  { match: /L40S/i, id: 'L40S', bandwidth_gbps: 864, fp32_gflops: 91_600, computeCapability: '8.9' },
  { match: /L4\b/i, id: 'L4', bandwidth_gbps: 300, fp32_gflops: 30_300, computeCapability: '8.9' },
  { match: /A10G?\b/i, id: 'A10', bandwidth_gbps: 600, fp32_gflops: 31_200, computeCapability: '8.6' },
  { match: /RTX 4090/i, id: 'RTX4090', bandwidth_gbps: 1008, fp32_gflops: 82_600, computeCapability: '8.9' },
  { match: /RTX 3090/i, id: 'RTX3090', bandwidth_gbps: 936, fp32_gflops: 35_600, computeCapability: '8.6' },
  { match: /T4\b/i, id: 'T4', bandwidth_gbps: 320, fp32_gflops: 8_100, computeCapability: '7.5' },
  { match: /V100/i, id: 'V100', bandwidth_gbps: 900, fp32_gflops: 15_700, computeCapability: '7.0' },
];

export interface CudaDevice extends Device {
  computeCapability: string;
  clocks?: string;
}

/** Parses `nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader` output. */
export function parseNvidiaSmi(csv: string): CudaDevice[] {
  const devices: CudaDevice[] = [];
  for (const line of csv.split('\n')) {
    const [name, memory, clock] = line.split(',').map((s) => s.trim());
    if (!name) continue;
    const facts = GPU_TABLE.find((f) => f.match.test(name));
    const id = `cuda-${facts?.id ?? name.replace(/^NVIDIA\s+/i, '').replace(/[^A-Za-z0-9]+/g, '')}`;
    if (devices.some((d) => d.id === id)) continue; // several identical GPUs are one device kind
    const mem = Number.parseFloat(memory ?? '');
    devices.push({
      id,
      kind: 'cuda',
      name,
      ...(Number.isFinite(mem) ? { memory_mb: mem } : {}),
      peaks: facts
        ? { bandwidth_gbps: facts.bandwidth_gbps, fp32_gflops: facts.fp32_gflops, source: 'table' }
        : { bandwidth_gbps: 0, fp32_gflops: 0, source: 'unknown' },
      available: true,
      runners: 1,
      languages: ['cuda'],
      computeCapability: facts?.computeCapability ?? '9.0',
      ...(clock ? { clocks: `max sm ${clock}` } : {}),
    });
  }
  return devices;
}

/** The GPUs nvidia-smi lists, each with its peaks measured on the device (KFORGE_CUDA_PEAKS=table: the table's). */
export function cudaDevices(workDir?: string): CudaDevice[] {
  let devices: CudaDevice[];
  try {
    const out = execFileSync(
      'nvidia-smi',
      ['--query-gpu=name,memory.total,clocks.max.sm', '--format=csv,noheader,nounits'],
      { encoding: 'utf8', timeout: 15_000 },
    );
    devices = parseNvidiaSmi(out);
  } catch {
    return [];
  }
  if (process.env.KFORGE_CUDA_PEAKS === 'table') return devices;
  return devices.map((d) => ({ ...d, peaks: measureCudaPeaks(d.id, d.computeCapability, d.peaks, workDir).peaks }));
}
