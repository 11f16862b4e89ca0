// Every device this machine offers: always the cpu, plus the GPUs nvidia-smi sees.
import type { Device } from '@kernelforge/sdk';
import { cpuDevice } from './cpu.js';
import { cudaDevices } from './cuda.js';
import { torchCudaUnavailable, torchToolchainQuick } from '../evaluate/torch-toolchain.js';
import { DEFAULT_PYTHON } from '../settings.js';

/** `python`: the interpreter the torch backend runs (KFORGE_PYTHON, read by the entry points). */
export function discoverDevices(opts: { workDir?: string; python?: string } = {}): Device[] {
  const python = opts.python ?? DEFAULT_PYTHON;
  return [cpuDevice(opts.workDir), ...cudaDevices(opts.workDir)].map((d) => withToolchains(d, python));
}

/** Each device's toolchains (Python, PyTorch, CUDA), and pytorch problems marked unavailable, with why, where
    the runner has no PyTorch. */
function withToolchains(d: Device, python: string): Device {
  const tc = torchToolchainQuick(python);
  return {
    ...d,
    toolchains: { ...tc.versions, ...(d.toolchains ?? {}) },
    ...(!tc.ok
      ? { unavailable: [{ kind: 'pytorch', reason: tc.reason ?? 'no PyTorch' }] }
      : d.kind === 'cuda' && torchCudaUnavailable(tc.versions)
        ? { unavailable: [{ kind: 'pytorch', reason: torchCudaUnavailable(tc.versions) ?? '' }] }
        : d.kind !== 'cpu' && d.kind !== 'cuda'
          ? { unavailable: [{ kind: 'pytorch', reason: `the torch backend does not run on ${d.kind} devices` }] }
          : {}),
  };
}
