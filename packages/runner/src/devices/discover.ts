// Every device this machine offers: always the cpu, plus the GPUs nvidia-smi sees.
import type { Device } from '@kernelforge/sdk';
import { cpuDevice } from './cpu.js';
import { cudaDevices } from './cuda.js';
import { torchToolchainQuick } from '../evaluate/torch.js';

export function discoverDevices(opts: { workDir?: string } = {}): Device[] {
  return [cpuDevice(opts.workDir), ...cudaDevices()].map(withToolchains);
}

/** Each device's toolchains (Python, PyTorch, CUDA), and pytorch problems marked unavailable, with why, where
    the runner has no PyTorch. */
function withToolchains(d: Device): Device {
  const tc = torchToolchainQuick();
  return {
    ...d,
    toolchains: { ...tc.versions, ...(d.toolchains ?? {}) },
    ...(!tc.ok
      ? { unavailable: [{ kind: 'pytorch', reason: tc.reason ?? 'no PyTorch' }] }
      : d.kind !== 'cpu'
        ? { unavailable: [{ kind: 'pytorch', reason: "the torch backend's CUDA path is not built yet" }] }
        : {}),
  };
}
