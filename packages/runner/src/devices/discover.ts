// Every device this machine offers: always the cpu, plus the GPUs nvidia-smi sees; each registered backend
// (backends/index.ts) says what it supports there.
import type { Device } from '@kernelforge/sdk';
import { BACKENDS } from '../backends/index.js';
import { DEFAULT_RUNNER_SETTINGS } from '../settings.js';
import { cpuDevice } from './cpu.js';
import { cudaDevices } from './cuda.js';

/** `python`: the interpreter the torch backend runs (KFORGE_PYTHON, read by the entry points). */
export function discoverDevices(opts: { workDir?: string; python?: string } = {}): Device[] {
  const settings = { ...DEFAULT_RUNNER_SETTINGS, ...(opts.python ? { python: opts.python } : {}) };
  return [cpuDevice(opts.workDir), ...cudaDevices(opts.workDir)].map((d) => withBackends(d, settings));
}

/** Each device's toolchains (Python, PyTorch, CUDA) and the problem kinds marked unavailable, with why, as each
    backend answers for it. */
function withBackends(d: Device, settings: typeof DEFAULT_RUNNER_SETTINGS): Device {
  const answers = BACKENDS.map((b) => ({ kind: b.kind, ...b.supports(d, settings) }));
  const toolchains = Object.assign({}, ...answers.map((a) => a.toolchains ?? {}), d.toolchains ?? {});
  const unavailable = answers.flatMap((a) =>
    a.unavailable !== undefined ? [{ kind: a.kind, reason: a.unavailable }] : [],
  );
  return { ...d, toolchains, ...(unavailable.length ? { unavailable } : {}) };
}
