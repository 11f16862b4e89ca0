// Every device this machine offers: always the cpu, plus the GPUs nvidia-smi sees.
import type { Device } from '@kernelforge/sdk';
import { cpuDevice } from './cpu.js';
import { cudaDevices } from './cuda.js';

export function discoverDevices(opts: { workDir?: string } = {}): Device[] {
  return [cpuDevice(opts.workDir), ...cudaDevices()];
}
